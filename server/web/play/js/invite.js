// Invite links (#/room/ID; loaded when needed, not on the first visit): the
// waiting room shows its link while a seat is free; a page that holds no
// seat and opens one finds that room at the top of its lobby, to join with
// the lobby's name and deck.
import { h, clear } from "./dom.js";

const $ = (sel) => document.querySelector(sel);

export function renderInvite(summary, free) {
  let el = $("#waiting-invite");
  if (!el) {
    el = h("p#waiting-invite");
    $("#waiting-leave").before(el);
  }
  el.hidden = !(summary.status === "waiting" && free);
  const url = `${window.location.origin}${window.location.pathname}#/room/${encodeURIComponent(summary.room)}`;
  if (el.hidden || el.dataset.url === url) return;
  el.dataset.url = url;
  const field = h("input#invite-url", { readonly: true, value: url, size: Math.min(url.length, 48), onfocus: (e) => e.target.select() });
  const copy = h("button.small", {
    type: "button",
    onclick: async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select and copy the link";
      }
    },
  }, "Copy");
  clear(el).append(h("label", { for: "invite-url" }, "Invite a friend: "), field, " ", copy);
}

// `conn`: the lobby's connection; `join(room)`: the lobby's Join.
export async function showInvite(id, conn, join) {
  let r;
  try {
    r = await conn.request("list_rooms", { room: id });
  } catch {
    return;
  }
  const room = r.rooms.find((x) => x.room === id);
  const el = $("#invite") || h("section#invite.panel");
  $("#lobby").prepend(el);
  if (!room || room.status !== "waiting") {
    clear(el).append(h("p", {}, `The room you were invited to (${id}) ${room ? "has started" : "is gone"}.`));
    return;
  }
  clear(el).append(h("p", {}, `You are invited to room ${id} (${room.mode}, ${room.format}). Choose your name and deck below, then: `),
    h("button#invite-join", {
      onclick: () => {
        el.remove();
        window.history.replaceState(null, "", window.location.pathname + window.location.search);
        join(room);
      },
    }, `Join room ${id}`));
}
