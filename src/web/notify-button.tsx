import { useState } from "preact/hooks";

/** Asks the browser to let the page notify the player when something starts waiting on it. */
export function NotifyButton() {
  const [permission, setPermission] = useState(() => ("Notification" in window ? Notification.permission : "denied"));
  if (!("Notification" in window)) return null;
  if (permission === "granted")
    return <p class="chores">This browser tells you when something starts waiting on you.</p>;
  return (
    <p class="chores">
      <button
        disabled={permission === "denied"}
        onClick={() => void Notification.requestPermission().then(setPermission)}
      >
        Notify me when it is my move
      </button>
      {permission === "denied" && " (notifications are blocked for this page in the browser's settings)"}
    </p>
  );
}
