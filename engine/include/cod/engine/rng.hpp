// The match's one random generator (R2.5, R16.1).
//
// Algorithm (specified so any implementation can replay a match):
//   - seeding: the four 64-bit words of state are four successive outputs of
//     SplitMix64 started at the match seed;
//   - generator: xoshiro256** 1.0 (Blackman & Vigna);
//   - below(n): Lemire's multiply-shift with rejection on the 64-bit output
//     (m = x * n as 128 bits; reject while low64(m) < (2^64 - n) mod n;
//     result = high64(m));
//   - shuffle: Fisher–Yates from the last element down: for i = size-1 .. 1,
//     swap(a[i], a[below(i + 1)]).
// std::uniform_int_distribution is never used: its output differs between
// standard libraries.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace cod {

class rng {
 public:
  rng() = default;
  explicit rng(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n). n must be > 0.
  std::uint64_t below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  template <typename T>
  void shuffle(T* first, int count) {
    for (int i = count - 1; i > 0; --i) {
      const auto j = static_cast<int>(below(static_cast<std::uint64_t>(i) + 1));
      std::swap(first[i], first[j]);
    }
  }

  const std::array<std::uint64_t, 4>& words() const { return s_; }
  bool operator==(const rng&) const = default;

  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace cod
