import { useEffect, useState } from "react";
import { Socket } from "socket.io-client";

// Every action the page sends over its live connection carries a number; the site sends the number back
// once the action is done (cycling_site/live_connection.py). Actions without their receipt are pending:
// shown while they wait, and sent again once a new connection has brought the page up to date (the site
// runs none twice).
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
    offlineSince = Date.now();
    reconnecting = true;
    notify();
  });
  socket.on("event", (update) => {
    const hydrated = Object.values(update?.delta ?? {}).some((changes) => changes?.[HYDRATED] === true);
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

const oldestWait = (now) => {
  let oldest = 0;
  for (const entry of pending.values()) oldest = Math.max(oldest, now - entry.sentAt);
  return oldest;
};

// The thin bar at the top while an action waits longer than busyMs; after slowMs without an answer, or
// without a live connection, a notice says so and offers to try again.
export function ActionWatch({ busyMs, slowMs, connectingText, waitingText, tryAgainText }) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((tick) => tick + 1);
    watchers.add(update);
    const timer = setInterval(() => {
      if (pending.size > 0 || offlineSince !== null) update();
    }, 250);
    return () => {
      watchers.delete(update);
      clearInterval(timer);
    };
  }, []);

  const now = Date.now();
  const connected = liveSocket?.connected ?? false;
  const waited = connected ? oldestWait(now) : 0;
  const offline = connected ? 0 : now - (offlineSince ?? now);
  const notice = offline >= slowMs ? connectingText : waited >= slowMs ? waitingText : null;
  return (
    <>
      {waited >= busyMs || (offline > 0 && pending.size > 0) ? (
        <div className="action-watch-bar" aria-hidden="true" />
      ) : null}
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
