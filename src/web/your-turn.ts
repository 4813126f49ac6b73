import { useEffect, useRef } from "preact/hooks";
import type { WaitingOn } from "../rules/waiting-on.js";
import { owedByHand } from "../words/owed.js";

/** What waits on the seat now that it gives by hand, in words, each once. */
export const owedBy = (waiting: WaitingOn | null, seat: string): string[] => owedByHand(waiting?.parties[seat]);

/** The page's icon with a red dot: something waits on you. */
const ICON_WAITING =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="4" fill="#2b5797"/>' +
      '<path d="M16 4 27 26H5Z" fill="#fafafa"/><circle cx="24" cy="8" r="8" fill="#d00" stroke="#fff" stroke-width="2"/></svg>',
  );

/**
 * The page's title and icon say what waits on the seat, and, once the player has allowed notifications, a notification
 * tells it when something starts waiting on it while the page is not in sight.
 */
export function useYourTurn(owed: string[], campaign: string): void {
  const before = useRef<string[]>([]);
  const words = owed.join(", ");
  useEffect(() => {
    document.title = owed.length > 0 ? `(Your move) ${campaign}: ${words}` : `${campaign}: Epic War campaign`;
    const icon = document.querySelector<HTMLLinkElement>("link[rel=icon]");
    if (icon) {
      icon.dataset["plain"] ??= icon.href;
      icon.href = owed.length > 0 ? ICON_WAITING : icon.dataset["plain"];
    }
    const fresh = owed.filter((what) => !before.current.includes(what));
    before.current = owed;
    if (fresh.length > 0 && document.hidden && "Notification" in window && Notification.permission === "granted")
      new Notification(`Epic War: ${campaign}`, { body: `Waiting on you: ${fresh.join(", ")}`, tag: campaign });
  }, [words, campaign]);
}
