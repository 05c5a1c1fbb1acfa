import { useEffect, useState } from "react";
import { Socket } from "socket.io-client";
import { toast } from "sonner";

// Every action the page sends over its live connection carries a number; the site sends the number back
// once the action is done (cycling_site/live_connection.py). Actions without their receipt are pending:
// shown while they wait, and sent again once a new connection has brought the page up to date (the site
// runs none twice). The page marks itself live (<html data-live>) while it is up to date over an open
// connection.
const RECEIPT = "receipt";
const HYDRATED = "is_hydrated_rx_state_";
const pageLoad = Math.random().toString(36).slice(2, 10);
let sent = 0;
const pending = new Map();
const watchers = new Set();
const watched = new WeakSet();
let liveSocket = null;
let offlineSince = Date.now();
let reconnecting = false;

const notify = () => watchers.forEach((watcher) => watcher());

const emit = Socket.prototype.emit;

const sendAgain = (socket) => {
  for (const entry of pending.values()) {
    entry.sentAt = Date.now();
    emit.call(socket, "event", entry.data);
  }
};

const watch = (socket) => {
  if (watched.has(socket)) return;
  watched.add(socket);
  liveSocket = socket;
  socket.on(RECEIPT, (receipt) => {
    if (pending.delete(receipt)) notify();
  });
  socket.on("connect", () => {
    offlineSince = null;
    notify();
  });
  socket.on("disconnect", () => {
    delete document.documentElement.dataset.live;
    offlineSince = Date.now();
    reconnecting = true;
    notify();
  });
  socket.on("event", (update) => {
    const hydrated = Object.values(update?.delta ?? {}).some((changes) => changes?.[HYDRATED] === true);
    if (hydrated) document.documentElement.dataset.live = "true";
    if (reconnecting && hydrated) {
      reconnecting = false;
      sendAgain(socket);
    }
  });
};

Socket.prototype.emit = function (name, ...args) {
  const data = args[0];
  if (name === "event" && args.length === 1 && data && typeof data === "object" && !data[RECEIPT]) {
    watch(this);
    sent += 1;
    const entry = { data: { ...data, [RECEIPT]: `${pageLoad}.${sent}` }, sentAt: Date.now() };
    pending.set(entry.data[RECEIPT], entry);
    notify();
    return emit.call(this, name, entry.data);
  }
  return emit.call(this, name, ...args);
};

// Chosen files go to the site over HTTP (Reflex posts them to /_upload), not over the live connection:
// while one is on its way the bar shows, and a sending that the connection cut, or that the site refused,
// says so (Reflex itself only logs it).
const UPLOAD_PATH = "/_upload";
const uploads = new Map();
let uploadFailedText = "";

const watchUpload = (request) => {
  let aborted = false;
  uploads.set(request, Date.now());
  notify();
  request.addEventListener("abort", () => {
    aborted = true;
  });
  request.addEventListener("loadend", () => {
    uploads.delete(request);
    notify();
    if (aborted || (request.status >= 200 && request.status < 300)) return;
    let text = uploadFailedText;
    try {
      text = JSON.parse(request.responseText).message || text;
    } catch {}
    toast.error(text, { id: "upload-failed" });
  });
};

// Not in the build's prerendering, which has no XMLHttpRequest.
if (typeof XMLHttpRequest !== "undefined") {
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    if (String(url).endsWith(UPLOAD_PATH)) watchUpload(this);
    return open.call(this, method, url, ...rest);
  };
}

const connect = Socket.prototype.connect;
Socket.prototype.connect = function (...args) {
  watch(this);
  return connect.apply(this, args);
};

// A fresh connection: the page is brought up to date, then every pending action is sent again.
const tryAgain = () => {
  const socket = liveSocket;
  if (!socket) return;
  offlineSince = Date.now();
  if (socket.connected) socket.disconnect();
  if (socket.reconnect) socket.reconnect();
  else socket.connect();
  notify();
};

// How long the oldest of these waits has lasted (their send times).
const longestWait = (now, sentTimes) => {
  let longest = 0;
  for (const sentAt of sentTimes) longest = Math.max(longest, now - sentAt);
  return longest;
};

// The thin bar at the top while an action or a file waits longer than busyMs; after slowMs without an
// answer to an action, or without a live connection, a notice says so and offers to try again (a large
// file on a slow phone may take longer: it keeps the bar).
export function ActionWatch({ busyMs, slowMs, connectingText, waitingText, tryAgainText, uploadFailed }) {
  uploadFailedText = uploadFailed;
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((tick) => tick + 1);
    watchers.add(update);
    const timer = setInterval(() => {
      if (pending.size > 0 || uploads.size > 0 || offlineSince !== null) update();
    }, 250);
    return () => {
      watchers.delete(update);
      clearInterval(timer);
    };
  }, []);

  const now = Date.now();
  const connected = liveSocket?.connected ?? false;
  const waited = connected ? longestWait(now, Array.from(pending.values(), (entry) => entry.sentAt)) : 0;
  const offline = connected ? 0 : now - (offlineSince ?? now);
  const notice = offline >= slowMs ? connectingText : waited >= slowMs ? waitingText : null;
  const uploading = longestWait(now, uploads.values());
  const busy = waited >= busyMs || uploading >= busyMs || (offline > 0 && pending.size > 0);
  return (
    <>
      {busy ? <div className="action-watch-bar" aria-hidden="true" /> : null}
      <div className="action-watch-notice" role="status" hidden={notice === null}>
        {notice === null ? null : (
          <>
            <span>{notice}</span>
            <button type="button" className="action-watch-retry" onClick={tryAgain}>
              {tryAgainText}
            </button>
          </>
        )}
      </div>
    </>
  );
}
