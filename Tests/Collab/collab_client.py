"""A second client of Redline's collaboration protocol, written from docs/collaboration-protocol.md alone.

It keeps a document's annotations as the server's frames describe them: a snapshot, then events in sequence.
"""
import asyncio
import json
import re
import uuid

import websockets

ELEMENT = re.compile(r"<(?!/)(?!\?)(?!xfdf)(?!annots)(?!add)(?!modify)(?!delete)([a-z]+)\b")


class Refused(Exception):
    def __init__(self, frame):
        super().__init__(f"{frame['code']}: {frame['message']}")
        self.frame = frame


class Client:
    """One connection to one document."""

    def __init__(self, url, token, document, ssl=None, batches=True, presence=False):
        self.url = url.rstrip("/") + "/v1/socket"
        self.token = token
        self.document = document
        self.ssl = ssl
        self.batches = batches   # ask for `events` frames (several events in one message)
        self.presence = presence # ask for `presence` frames (who is in the document)
        self.present = []        # the users the last presence frame named
        self._present_changed = asyncio.Event()
        self.event_frames = 0    # `event` frames received
        self.batch_frames = 0    # `events` frames received
        self.head = 0            # last sequence number applied
        self.annotations = {}    # name -> {"version", "author", "page", "deleted", "inReplyTo"}
        self.events = []         # every event applied, in order
        self.errors = []
        self.answers = 0         # ack, refused and error frames received
        self.answer_frames = []  # those frames, in the order they came
        self._answered = asyncio.Event()
        self.user = None
        self.access = None
        self._socket = None
        self._waiting = {}       # op -> future of its ack or refusal
        self._reader = None
        self._advanced = asyncio.Event()
        self._snapshot_parts = []

    async def connect(self, since=None):
        self._socket = await websockets.connect(
            self.url, additional_headers={"Authorization": f"Bearer {self.token}"}, max_size=64 << 20,
            **({"ssl": self.ssl} if self.ssl else {}))
        hello = {"type": "hello", "document": self.document}
        if since is not None:
            hello["since"] = since
        if self.batches:
            hello["batches"] = True
        if self.presence:
            hello["presence"] = True
        try:
            await self._socket.send(json.dumps(hello))
        except websockets.ConnectionClosed:
            pass  # A refusal closes at once, maybe before the hello went: its error frame is still there to read.
        try:
            welcome = json.loads(await self._socket.recv())
        except websockets.ConnectionClosed as closed:
            # A refused connection (a bad token, too many connections) is closed with the reason: report it.
            raise RuntimeError(f"closed before welcome: {closed}") from closed
        if welcome["type"] != "welcome":
            raise RuntimeError(f"expected welcome, got {welcome}")
        self.user, self.access = welcome["user"], welcome["access"]
        self._snapshot_done = asyncio.Event()
        if not welcome["snapshot"]:
            self._snapshot_done.set()
        self._reader = asyncio.create_task(self._read())
        # Caught up: the whole set (when the server sends one), then every event up to the head it announced.
        await asyncio.wait_for(self._snapshot_done.wait(), 60)
        await self.wait_for_head(welcome["head"])
        return welcome

    async def resume(self):
        """Reconnects and asks for what happened after the last event applied."""
        await self.close()
        return await self.connect(since=self.head)

    async def close(self):
        if self._socket is not None:
            try:
                await self._socket.close()
            except AttributeError:
                pass  # websockets closing a transport the server closed at the same moment: closed either way
        if self._reader is not None:
            try:
                await self._reader
            except Exception:
                pass
        self._socket = None
        self._reader = None
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("connection closed"))
        self._waiting = {}

    def drop(self):
        """Cuts the connection without a closing handshake, as a network failure would."""
        transport = self._socket.transport
        transport.abort()

    async def _read(self):
        try:
            async for text in self._socket:
                self._handle(json.loads(text))
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))

    def _apply(self, event):
        if event["seq"] <= self.head:
            return
        if event["seq"] != self.head + 1:
            raise RuntimeError(f"gap: event {event['seq']} after {self.head}")
        for entry in event["annotations"]:
            self.annotations[entry["name"]] = entry
        self.head = event["seq"]
        self.events.append(event)
        self._advanced.set()

    def _handle(self, frame):
        kind = frame["type"]
        if kind == "snapshot":
            self._snapshot_parts.append(frame)
            if frame["last"]:
                self.annotations = {}
                for part in self._snapshot_parts:
                    for entry in part["annotations"]:
                        self.annotations[entry["name"]] = entry
                self._snapshot_parts = []
                self.head = frame["head"]
                self._snapshot_done.set()
                self._advanced.set()
        elif kind == "event":
            self.event_frames += 1
            self._apply(frame["event"])
        elif kind == "presence":
            if not self.presence:
                raise RuntimeError("a presence frame to a client that did not ask for it")
            self.present = frame["users"]
            self._present_changed.set()
        elif kind == "events":
            if not self.batches:
                raise RuntimeError("an events frame to a client that did not ask for batches")
            self.batch_frames += 1
            for event in frame["events"]:
                self._apply(event)
        if kind in ("ack", "refused", "error"):
            self.answer_frames.append(frame)
            self.answers += 1
            self._answered.set()
        if kind in ("ack", "refused"):
            future = self._waiting.pop(frame["op"], None)
            if future is not None and not future.done():
                future.set_result(frame)
        if kind == "error":
            self.errors.append(frame)

    async def send_raw(self, text):
        await self._socket.send(text)

    async def answer_after(self, count, timeout=30):
        """Waits until more than `count` answers (ack, refused, error) arrived, or the connection closed."""
        async def answered():
            while self.answers <= count and not self._reader.done():
                self._answered.clear()
                waiter = asyncio.ensure_future(self._answered.wait())
                await asyncio.wait([waiter, self._reader], return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
        await asyncio.wait_for(answered(), timeout)
        return self.answers > count

    async def change(self, xfdf, base=None, op=None):
        """Sends a change and returns its ack; raises Refused with the server's refusal."""
        op = op or str(uuid.uuid4())
        future = asyncio.get_running_loop().create_future()
        self._waiting[op] = future
        frame = {"type": "change", "op": op, "xfdf": xfdf}
        if base is not None:
            frame["base"] = base
        try:
            await self._socket.send(json.dumps(frame))
        except websockets.ConnectionClosed as closed:
            self._waiting.pop(op, None)
            if future.done():
                future.exception()
            raise ConnectionError("connection closed") from closed
        answer = await future
        if answer["type"] == "refused":
            raise Refused(answer)
        return answer

    async def wait_for_presence(self, users, timeout=60):
        """Waits until the server says exactly these users are in the document."""
        async def reached():
            while sorted(self.present) != sorted(users):
                self._present_changed.clear()
                await self._present_changed.wait()
        await asyncio.wait_for(reached(), timeout)

    async def wait_for_head(self, seq, timeout=60):
        async def reached():
            while self.head < seq:
                self._advanced.clear()
                await self._advanced.wait()
        await asyncio.wait_for(reached(), timeout)

    def live(self):
        return {name: (entry["version"], entry["author"]) for name, entry in self.annotations.items() if not entry["deleted"]}


XFDF = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/">{}</xfdf>'


def add(name, page=0, text="note", reply_to=None, title=None, state=None):
    extra = f' inreplyto="{reply_to}"' if reply_to else ""
    extra += f' title="{title}"' if title else ""
    extra += f' state="{state}" statemodel="Review"' if state else ""
    return XFDF.format(f'<add><text name="{name}" page="{page}" rect="100,100,120,120"{extra}>'
                       f'<contents>{text}</contents></text></add>')


def modify(name, page=0, text="changed", reply_to=None):
    extra = f' inreplyto="{reply_to}"' if reply_to else ""
    return XFDF.format(f'<modify><text name="{name}" page="{page}" rect="110,110,130,130"{extra}>'
                       f'<contents>{text}</contents></text></modify>')


def delete(name, page=0):
    return XFDF.format(f'<delete><id page="{page}">{name}</id></delete>')
