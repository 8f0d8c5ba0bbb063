// The guided first game's deal (coach.js): a solo room, quick play (the
// gentlest AI R12.8 allows: no custom setting makes it weaker), this
// preconstructed deck and this chosen seed (options.seed, docs/protocol.md):
// the shuffles are known, so a newcomer who follows the coach wins it.
// Chosen with tests/browser/newcomer.mjs --seeds (docs/web-client.md).
export const GUIDED_GAME = { deck: 2, seed: "136" };
