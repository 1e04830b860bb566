"""Redline's collaboration server against the protocol document, through the Python client: rights, versions,
hostile frames, convergence with dropped connections, and a kill -9 in the middle of a burst.

Usage: server_suite.py SERVER-BINARY [--clients N] [--changes N] [--seed N]
Exits 0 when every check holds; prints what failed otherwise.
"""
import argparse
import asyncio
import collections
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import uuid

import websockets

sys.path.insert(0, os.path.dirname(__file__))
from collab_client import Client, Refused, add, delete, modify, XFDF  # noqa: E402

FAILURES = []


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


class Server:
    """One `redline serve` instance; `database` is what --database takes (an SQLite file in `folder` by default)."""

    def __init__(self, binary, folder, extra=(), database=None):
        self.binary = binary
        self.database = database or "sqlite:" + os.path.join(folder, "server.sqlite")
        self.folder = folder
        self.extra = list(extra)
        self.process = None
        self.url = None

    def admin(self, *arguments):
        result = subprocess.run([self.binary, *arguments, "--database", self.database],
                                capture_output=True, text=True, timeout=60,
                                env={**os.environ, "XDG_CONFIG_HOME": self.folder})
        if result.returncode != 0:
            raise RuntimeError(f"{arguments}: {result.stderr}")
        return result.stdout.strip()

    def start(self, port=0):
        self.process = subprocess.Popen(
            [self.binary, "--listen", f"127.0.0.1:{port}", "--database", self.database, *self.extra],
            # Not the suite's stdout: a server left running by a failed phase would hold the test runner's pipe open.
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "XDG_CONFIG_HOME": self.folder})
        self.early = []
        for line in self.process.stderr:
            self.early.append(line)
            if line.startswith("Redline server listening on "):
                self.url = line.strip().split("listening on ")[1]
                # The rest of the log is read as it comes: a pipe nobody reads would stop the server when full.
                self.log = []
                threading.Thread(target=lambda: self.log.extend(self.process.stderr), daemon=True).start()
                return self.url
        raise RuntimeError("the server ended before listening")

    def port(self):
        return int(self.url.rsplit(":", 1)[1])

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        return self.process.returncode


def log(database, document):
    """The document's log (seq, operation) and live annotations (name: version), read from the database itself."""
    if database.startswith("sqlite:"):
        connection = sqlite3.connect(database[len("sqlite:"):])
        rows = connection.execute("SELECT seq, operation FROM events WHERE document = ? ORDER BY seq", (document,)).fetchall()
        live = connection.execute("SELECT name, version FROM annotations WHERE document = ? AND deleted = 0", (document,)).fetchall()
        connection.close()
        return rows, dict(live)
    def psql(query):
        out = subprocess.run(["psql", "-X", "-At", "-F", "\t", database, "-c", query],
                             capture_output=True, text=True, check=True).stdout
        return [line.split("\t") for line in out.splitlines() if line]
    # psql -c does not substitute variables: the document id (hex and dashes, checked by the server) is quoted here.
    quoted = "'" + document.replace("'", "''") + "'"
    rows = [(int(seq), op) for seq, op in psql(f"SELECT seq, operation FROM events WHERE document = {quoted} ORDER BY seq")]
    live = {name: int(version) for name, version in
            psql(f"SELECT name, version FROM annotations WHERE document = {quoted} AND NOT deleted")}
    return rows, live


async def rights(servers, tokens):
    """Alice, Bob and Carol on different instances when there are several: every rule holds across them."""
    server = servers[0]
    def on(index):
        return servers[index % len(servers)].url
    document = "rights-" + uuid.uuid4().hex[:8]
    alice = Client(server.url, tokens["alice"], document)
    await alice.connect()
    check(alice.access == "write", "the first user to join a new document owns it")
    server.admin("grant", "bob", document)
    server.admin("grant", "carol", document, "--read-only")
    bob, carol = Client(on(1), tokens["bob"], document), Client(on(2), tokens["carol"], document)
    await bob.connect()
    await carol.connect()

    ack = await alice.change(add("note-1", title="Mallory"))
    await bob.wait_for_head(ack["seq"])
    check(bob.annotations["note-1"]["author"] == "alice", "the author is the authenticated user, not the title sent")
    check('title="alice"' in bob.events[-1]["xfdf"] and "Mallory" not in bob.events[-1]["xfdf"],
          "the XFDF other clients receive carries the authenticated author")

    for name, attempt in [("modify", lambda: bob.change(modify("note-1"), base=1)),
                          ("delete", lambda: bob.change(delete("note-1"), base=1))]:
        try:
            await attempt()
            check(False, f"bob may not {name} alice's note")
        except Refused as refusal:
            check(refusal.frame["code"] == "not-author", f"{name} by another user is refused as not-author")
            check(refusal.frame["current"]["author"] == "alice", "a refusal names the current state")

    reply = await bob.change(add("reply-1", text="agreed", reply_to="note-1"))
    state = await bob.change(add("state-1", text="Accepted", reply_to="note-1", state="Accepted"))
    check(reply["version"] == 1 and state["version"] == 1, "others may reply and set their review state")
    try:
        await carol.change(add("carol-1"))
        check(False, "a read-only member cannot send")
    except Refused as refusal:
        check(refusal.frame["code"] == "read-only", "a read-only member's change is refused as read-only")
    await carol.wait_for_head(state["seq"])
    check(set(carol.live()) == {"note-1", "reply-1", "state-1"}, "a read-only member receives every event")

    try:
        await alice.change(modify("note-1"), base=7)
        check(False, "a stale base is refused")
    except Refused as refusal:
        check(refusal.frame["code"] == "stale" and refusal.frame["current"]["version"] == 1, "stale: refused with the current version")
    op = str(uuid.uuid4())
    first = await alice.change(modify("note-1"), base=1, op=op)
    again = await alice.change(modify("note-1"), base=1, op=op)
    check(first["seq"] == again["seq"] and first["version"] == 2, "a resent operation is applied once")
    try:
        await bob.change(add("bobs-own"), op=op)
        check(False, "another user's operation id is not taken as a resend")
    except Refused as refusal:
        check(refusal.frame["code"] == "op-in-use", "another user's operation id is refused as op-in-use")
    gone = await alice.change(delete("note-1"), base=2)
    await bob.wait_for_head(gone["seq"])
    check(bob.live() == {}, "deleting an annotation deletes its replies and states")
    try:
        await bob.change(add("reply-2", reply_to="note-1"))
        check(False, "a reply to a deleted annotation is refused")
    except Refused as refusal:
        check(refusal.frame["code"] == "deleted", "a reply to a deleted annotation is refused as deleted")
    try:
        await alice.change(add("note-1"))
        check(False, "a deleted name does not come back")
    except Refused as refusal:
        check(refusal.frame["code"] == "deleted", "adding a deleted name again is refused as deleted")

    # Non-members: refused at hello, and nothing of the document reaches them.
    dave = Client(on(3), tokens["dave"], document)
    try:
        await dave.connect()
        await asyncio.wait_for(dave._reader, 30)
    except Exception:
        pass
    check(dave.events == [] and dave.annotations == {}, "a non-member receives nothing")
    for token in ["forged", tokens["alice"][:-2] + "xx"]:
        forger = Client(on(1), token, document)
        try:
            await forger.connect()
            check(False, "a forged token is refused")
        except RuntimeError as refused:
            check("unauthorized" in str(refused), f"a forged token is refused as unauthorized ({refused})")

    # A removed user's open connection is closed and receives nothing more.
    server.admin("user", "remove", "carol")
    after = await alice.change(add("note-2"))
    await bob.wait_for_head(after["seq"])
    await asyncio.wait_for(carol._reader, 30)
    check(carol.head < after["seq"], "a removed user receives no event after removal")
    for client in (alice, bob, carol):
        await client.close()


async def hostile(server, tokens):
    document = "hostile-" + uuid.uuid4().hex[:8]
    victim = Client(server.url, tokens["alice"], document)
    await victim.connect()
    attacker = Client(server.url, tokens["bob"], document)
    server.admin("grant", "bob", document)
    await attacker.connect()
    cases = [
        ("malformed", "{not json"),
        ("unknown-type", json.dumps({"type": "shout"})),
        ("too-large", json.dumps({"type": "change", "op": "x", "xfdf": "a" * (2 << 20)})),
    ]
    for code, text in cases[:2]:
        await attacker.send_raw(text)
    for quadratic in ["<text " + " ".join(f'a{i}="1"' for i in range(60_000)) + "/>",
                      '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><xfdf>&b;</xfdf>']:
        try:
            await attacker.change(XFDF.format(f"<add>{quadratic}</add>") if quadratic.startswith("<text") else quadratic)
            check(False, "hostile XFDF is refused")
        except Refused as refusal:
            check(refusal.frame["code"] == "invalid", "hostile XFDF is refused as invalid")
    ack = await victim.change(add("still-served"))
    check(ack["version"] == 1, "the server serves everyone else while one client misbehaves")
    await attacker.send_raw(cases[2][1])
    await asyncio.wait_for(attacker._reader, 30)
    codes = [error["code"] for error in attacker.errors]
    check(codes[:2] == ["malformed", "unknown-type"], f"malformed frames get error frames naming the problem ({codes})")
    check("too-large" in codes[2:] or len(codes) >= 3, "an oversized frame gets an error frame")
    check(attacker._socket.close_code is not None, "a connection that repeats violations is closed")
    rows, live = log(server.database, document)
    check([seq for seq, _ in rows] == [1], "nothing of the hostile frames is stored")
    # A message in fragments is measured whole: 2 MiB gets too-large, 6 MiB ends the connection as one frame would.
    fragmented = Client(server.url, tokens["alice"], document)
    await fragmented.connect()
    await fragmented._socket.send(["a" * (1 << 20)] * 2)
    ack = await fragmented.change(add("after-fragments"))
    check([error["code"] for error in fragmented.errors] == ["too-large"] and ack["version"] == 1,
          f"a 2 MiB message in fragments gets too-large and the connection goes on ({fragmented.errors})")
    try:
        await fragmented._socket.send(["a" * (1 << 20)] * 6)
    except websockets.ConnectionClosed:
        pass
    await closed_by_server(fragmented, 30)
    check(fragmented._socket.close_code == 1009 and len(fragmented.errors) == 1,
          f"a 6 MiB message in fragments closes the connection with 1009 ({fragmented._socket.close_code})")
    await victim.close()
    await attacker.close()
    await fragmented.close()


async def pipelined(server, tokens):
    """Changes sent without waiting for answers: each answered, in the order sent, interleaved errors included, and
    each decided after the ones before it (a reply to a note sent just before, a deletion of one)."""
    document = "pipelined-" + uuid.uuid4().hex[:8]
    client = Client(server.url, tokens["alice"], document)
    await client.connect()
    frames, expected, seqs_expected, numbered = [], [], [], 0
    for index in range(40):
        op = f"p-{index}"
        if index == 10:
            frame, answer = {"type": "change", "op": op, "xfdf": modify("never-added"), "base": 1}, ("refused", op, "unknown")
        elif index == 20:
            frames.append("{oops")
            expected.append(("error", None, "malformed"))
            continue
        elif index == 25:
            frame, answer = {"type": "change", "op": op, "xfdf": "<xfdf><add>"}, ("refused", op, "invalid")
        elif index == 30:
            frame, answer = {"type": "change", "op": op, "xfdf": add(f"reply-{index}", reply_to="note-5")}, ("ack", op, None)
        elif index == 35:
            frame, answer = {"type": "change", "op": op, "xfdf": delete("note-1"), "base": 1}, ("ack", op, None)
        elif index == 38:
            frame, answer = {"type": "change", "op": "p-2", "xfdf": add("note-2")}, ("ack", "p-2", None)
        else:
            frame, answer = {"type": "change", "op": op, "xfdf": add(f"note-{index}")}, ("ack", op, None)
        frames.append(json.dumps(frame))
        expected.append(answer)
        if answer[0] == "ack" and index != 38:
            numbered += 1
            seqs_expected.append(numbered)
        elif answer[0] == "ack":
            seqs_expected.append(3)  # the resend of p-2 is answered with p-2's number
    for text in frames:
        await client.send_raw(text)
    await client.answer_after(len(expected) - 1, timeout=60)
    got = [(frame["type"], frame.get("op"), frame.get("code")) for frame in client.answer_frames]
    check(got == expected, f"changes sent without waiting are answered in the order sent ({got[:12]}…)")
    acks = [frame for frame in client.answer_frames if frame["type"] == "ack"]
    seqs = [frame["seq"] for frame in acks]
    check(seqs == seqs_expected, f"each is numbered in the order sent, a resend with its first number ({seqs})")
    await client.wait_for_head(max(seqs))
    check(client.annotations["reply-30"]["inReplyTo"] == "note-5" and client.annotations["note-1"]["deleted"],
          "a change sees the changes sent before it")
    await client.close()


async def batches(server, tokens, count=120):
    """A client that asks for batches and one that does not, following one burst: the same events in the same order;
    only the first gets `events` frames, and one catching up on the whole log gets it in a few messages."""
    document = "batches-" + uuid.uuid4().hex[:8]
    writer = Client(server.url, tokens["alice"], document)
    await writer.connect()
    single = Client(server.url, tokens["alice"], document, batches=False)
    await single.connect()
    for index in range(count):
        await writer.send_raw(json.dumps({"type": "change", "op": f"b-{index}", "xfdf": add(f"b-{index}")}))
    await writer.answer_after(count - 1, timeout=60)
    late = Client(server.url, tokens["alice"], document)
    await late.connect(since=0)
    for client in (writer, single, late):
        await client.wait_for_head(count)
    check(single.batch_frames == 0 and single.event_frames == count,
          f"a client that did not ask for batches gets one event per frame ({single.event_frames}, {single.batch_frames} batches)")
    check(late.batch_frames >= 1 and late.batch_frames + late.event_frames <= 5,
          f"catching up on {count} events comes in a few batches ({late.batch_frames} batches, {late.event_frames} single)")
    check(writer.events == single.events == late.events and [event["seq"] for event in late.events] == list(range(1, count + 1)),
          "batched or not, every client gets the same events in the same order")
    for client in (writer, single, late):
        await client.close()


async def joining_order(server, tokens, trials=10):
    """A client that joins while others write and sends a change at once: the welcome's head is the head of the set
    that follows it, and its change is answered only after that set."""
    document = "joining-" + uuid.uuid4().hex[:8]
    writers = [Client(server.url, tokens["alice"], document) for _ in range(3)]
    for index, writer in enumerate(writers):
        await writer.connect()
        for number in range(200):
            await writer.send_raw(json.dumps({"type": "change", "op": f"j-{index}-{number}", "xfdf": add(f"j-{index}-{number}")}))
    for writer in writers:
        await writer.answer_after(199, timeout=120)
    server.admin("grant", "bob", document)
    busy = True

    async def keep_writing(writer):
        number = 0
        while busy:
            await asyncio.wait_for(writer.change(add(f"during-{number}")), 60)
            number += 1
            await asyncio.sleep(0.02)  # pacing under the server's 100 changes a second, not a wait for an outcome
    # A connection of its own: the writers above spent their bursts, and a change refused as too fast is never acked.
    background_writer = Client(server.url, tokens["alice"], document)
    await background_writer.connect()
    writers.append(background_writer)
    background = asyncio.create_task(keep_writing(background_writer))
    orders = []
    for trial in range(trials):
        socket = await websockets.connect(server.url + "/v1/socket", max_size=64 << 20,
                                          additional_headers={"Authorization": f"Bearer {tokens['bob']}"})
        op = f"joined-{trial}-" + uuid.uuid4().hex[:6]
        await socket.send(json.dumps({"type": "hello", "document": document}))
        await socket.send(json.dumps({"type": "change", "op": op, "xfdf": add(op)}))
        frames = []
        while not any(frame.get("op") == op for frame in frames):
            frames.append(json.loads(await asyncio.wait_for(socket.recv(), 60)))
        await socket.close()
        kinds = [frame["type"] for frame in frames if frame["type"] != "event"]
        snapshots = [frame for frame in frames if frame["type"] == "snapshot"]
        orders.append((kinds[0], frames[0].get("head"), snapshots[-1]["head"] if snapshots else None,
                       kinds.index("ack") > max((i for i, kind in enumerate(kinds) if kind == "snapshot"), default=-1)
                       and bool(snapshots) and snapshots[-1]["last"]))
    busy = False
    await background
    check(all(kind == "welcome" and head == snapshot_head and acked_after for kind, head, snapshot_head, acked_after in orders),
          f"a joining client's welcome carries the set's head and its change is answered after the set ({orders})")
    for writer in writers:
        await writer.close()


async def cross_instance_races(servers, tokens, rounds=20):
    """The same change reaching two instances at the same moment: of two modifies of one version exactly one is
    accepted, and one operation id sent to both is applied once, both answered with its number. (Facts read in the
    statement that waited for the document's lock were those from before the other instance's commit: both modifies
    were accepted, and an operation's second insert failed unseen, acknowledged and rolled back.)"""
    document = "race-" + uuid.uuid4().hex[:8]
    first = Client(servers[0].url, tokens["alice"], document)
    await first.connect()
    second = Client(servers[1].url, tokens["alice"], document)
    await second.connect()
    doubles, missing = 0, []

    async def at_once(frames):
        counts = (first.answers, second.answers)
        await asyncio.gather(first.send_raw(json.dumps(frames[0])), second.send_raw(json.dumps(frames[1])))
        await first.answer_after(counts[0])
        await second.answer_after(counts[1])
        return first.answer_frames[counts[0]], second.answer_frames[counts[1]]

    for index in range(rounds):
        name = f"race-{index}"
        await first.change(add(name))
        await second.wait_for_head(first.head)
        answers = await at_once([{"type": "change", "op": str(uuid.uuid4()), "xfdf": modify(name, text=who), "base": 1}
                                 for who in ("one", "two")])
        kinds = sorted(answer["type"] + ":" + str(answer.get("code")) for answer in answers)
        if kinds != ["ack:None", "refused:stale"]:
            doubles += 1
        shared = {"type": "change", "op": str(uuid.uuid4()), "xfdf": add(f"shared-{index}")}
        answers = await at_once([shared, shared])
        seqs = {answer.get("seq") for answer in answers}
        if any(answer["type"] != "ack" for answer in answers) or len(seqs) != 1:
            missing.append(answers)
    # An ack may come before its event: wait for the event of the last change acknowledged.
    acknowledged = [frame["seq"] for client in (first, second) for frame in client.answer_frames if frame["type"] == "ack"]
    await first.wait_for_head(max(acknowledged))
    check(doubles == 0, f"of two modifies of one version sent to two instances at once, one is accepted ({doubles} of {rounds} rounds: not so)")
    check(not missing, f"an operation sent to two instances at once is applied once, both answered with its number ({missing[:2]})")
    logged = collections.Counter(event["op"] for event in first.events)
    check(max(logged.values()) == 1, "no operation is in the log twice")
    for index in range(rounds):
        entry = first.annotations.get(f"shared-{index}")
        check(entry is not None and not entry["deleted"], f"the acknowledged shared-{index} is in the document")
    await first.close()
    await second.close()


async def closed_by_server(client, timeout):
    """Waits until the server has closed the client's connection, or `timeout` seconds have passed."""
    try:
        await asyncio.wait_for(client._reader, timeout)
    except asyncio.TimeoutError:
        pass


def rows(database, query):
    """Rows of a query (no parameters) on the server's database, SQLite or PostgreSQL."""
    if database.startswith("sqlite:"):
        connection = sqlite3.connect(database[len("sqlite:"):])
        try:
            return [tuple(str(value) for value in row) for row in connection.execute(query).fetchall()]
        finally:
            connection.close()
    out = subprocess.run(["psql", "-X", "-At", "-F", "\t", database, "-c", query],
                         capture_output=True, text=True, check=True).stdout
    return [tuple(line.split("\t")) for line in out.splitlines() if line]


def peak_resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


async def snapshot_storm(server, tokens, joiners=25):
    """Twenty-five new clients join a 30 MB document at once (a reconnect storm of clients without `since`): they
    share one read of the set, so the server's memory grows by about one copy, not one per joiner."""
    document = "storm-" + uuid.uuid4().hex[:6]
    writer = Client(server.url, tokens["alice"], document)
    await writer.connect()
    big = "x" * 200_000
    for index in range(150):
        await writer.change(add(f"storm-{index}", text=big))
    pid = server.process.pid
    with open(f"/proc/{pid}/clear_refs", "w") as clear:
        clear.write("5")  # the peak resident size starts again from now
    before = peak_resident_kib(pid)
    readers = [Client(server.url, tokens["alice"], document) for _ in range(joiners)]
    await asyncio.gather(*(reader.connect() for reader in readers))
    grown = (peak_resident_kib(pid) - before) // 1024
    complete = all(len(reader.live()) == 150 for reader in readers)
    for reader in readers + [writer]:
        await reader.close()
    check(complete, "every joiner of the storm received the whole set")
    check(grown < 400, f"{joiners} joiners of a 30 MB document grow the server by {grown} MiB, under 400")
    return grown


def upload(server, document, token, parts, chunked=True):
    """PUTs the PDF made of `parts` (bytes objects), streamed without a Content-Length; (status, body)."""
    import http.client
    host, port = server.url.replace("ws://", "").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=120)
    try:
        connection.request("PUT", f"/v1/documents/{document}/pdf", body=iter(parts),
                           headers={"Authorization": f"Bearer {token}"}, encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


async def shared_pdfs(server, tokens):
    """Shared PDFs stream through the server in parts: byte for byte whatever their size, several large ones at once
    in bounded memory, and an upload that fails (too large, not a PDF, cut off) leaves the earlier PDF as it was."""
    import hashlib
    import socket
    document = "pdfs-" + uuid.uuid4().hex[:8]
    owner = Client(server.url, tokens["alice"], document)
    await owner.connect()
    await owner.close()
    mib = 1 << 20
    def body(size, seed):
        generator = __import__("random").Random(seed)
        first = b"%PDF-1.7\n" + generator.randbytes(mib - 9)
        yield first
        for _ in range(1, size // mib):
            yield generator.randbytes(mib)
        yield b"\n%%EOF\n" + generator.randbytes(generator.randrange(1, 5000))
    def digest(size, seed):
        hasher = hashlib.sha256()
        for part in body(size, seed):
            hasher.update(part)
        return hasher.hexdigest()
    status, _ = await asyncio.to_thread(upload, server, document, tokens["alice"], body(24 * mib, 1))
    got = await asyncio.to_thread(http, server, "GET", f"/v1/documents/{document}/pdf", tokens["alice"])
    check(status == 204 and got[0] == 200 and hashlib.sha256(got[1]).hexdigest() == digest(24 * mib, 1),
          f"a 24 MiB shared PDF comes back byte for byte ({status}, {got[0]}, {len(got[1])} bytes)")
    kept = got[1]
    # Four uploads of 96 MiB at once (by four users: two at once is a user's most) cost the server a few parts
    # each, not their size.
    before = peak_resident_kib(server.process.pid)
    uploaders = [f"uploader-{uuid.uuid4().hex[:6]}" for _ in range(4)]
    tokens = {**tokens, **{user: server.admin("user", "add", user) for user in uploaders}}
    documents = [f"{document}-{index}" for index in range(4)]
    for user, other in zip(uploaders, documents):
        join = Client(server.url, tokens[user], other)
        await join.connect()
        await join.close()
    statuses = await asyncio.gather(*(asyncio.to_thread(upload, server, other, tokens[user], body(96 * mib, 10 + index))
                                      for index, (user, other) in enumerate(zip(uploaders, documents))))
    grown = peak_resident_kib(server.process.pid) - before
    check([status for status, _ in statuses] == [204] * 4, f"four 96 MiB uploads at once are stored ({statuses})")
    check(grown < 128 * 1024, f"four 96 MiB uploads at once raise the server's peak memory by under 128 MiB ({grown // 1024} MiB)")
    # Refusals keep what was there: a body that says it is too large, one that is not a PDF, one cut off midway.
    host, port = server.url.replace("ws://", "").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=60) as raw:
        raw.sendall((f"PUT /v1/documents/{document}/pdf HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {tokens['alice']}\r\n"
                     f"Content-Length: {600 * mib}\r\n\r\n").encode())
        answer = raw.recv(4096).decode(errors="replace")
    check(answer.startswith("HTTP/1.1 413"), f"a body declared over the limit is refused at once with 413 ({answer[:40]!r})")
    status, _ = await asyncio.to_thread(upload, server, document, tokens["alice"], [b"<html>" + bytes(3 * mib)])
    check(status == 400, f"a body that is not a PDF is refused with 400 ({status})")
    with socket.create_connection((host, int(port)), timeout=60) as raw:
        raw.sendall((f"PUT /v1/documents/{document}/pdf HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {tokens['alice']}\r\n"
                     f"Content-Length: {10 * mib}\r\n\r\n").encode() + b"%PDF-1.7\n" + bytes(3 * mib))
    got = await asyncio.to_thread(http, server, "GET", f"/v1/documents/{document}/pdf", tokens["alice"])
    check(got == (200, kept), "after a refused, a foreign and a cut-off upload the earlier shared PDF is served unchanged")
    # What failed uploads wrote is dropped: once the cut-off one is noticed, only finished uploads remain.
    loop = asyncio.get_running_loop()

    async def unfinished_uploads_become(count):
        deadline = loop.time() + 120
        while rows(server.database, "SELECT count(*) FROM pdf_uploads WHERE size IS NULL") != [(str(count),)] and loop.time() < deadline:
            await asyncio.sleep(0.05)
        return rows(server.database, "SELECT count(*) FROM pdf_uploads WHERE size IS NULL")
    unfinished = await unfinished_uploads_become(0)
    stored = rows(server.database, "SELECT count(*) FROM pdf_uploads")
    check(unfinished == [("0",)] and stored == [("5",)],
          f"failed uploads leave no parts behind and each document keeps one PDF ({unfinished}, {stored})")
    # Two uploads at once are a user's most: a third is told to come back, another user's is taken, and uploads
    # that stall are ended by the server (30 s without a byte), which frees their places.
    server.admin("grant", "bob", document)
    held = []
    for _ in range(2):
        raw = socket.create_connection((host, int(port)), timeout=60)
        raw.sendall((f"PUT /v1/documents/{document}/pdf HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {tokens['alice']}\r\n"
                     f"Content-Length: {10 * mib}\r\n\r\n").encode() + b"%PDF-1.7\n")
        held.append(raw)
    running = await unfinished_uploads_become(2)
    status, answer = await asyncio.to_thread(upload, server, document, tokens["alice"], [b"%PDF-1.7\n"])
    check(running == [("2",)] and status == 503 and b"uploads running" in answer,
          f"a user's third upload at once is answered 503 ({running}, {status}: {answer[:80]!r})")
    status, _ = await asyncio.to_thread(upload, server, document, tokens["bob"], [kept])
    check(status == 204, f"another user's upload is taken meanwhile ({status})")
    stalled = await unfinished_uploads_become(0)
    status, _ = await asyncio.to_thread(upload, server, document, tokens["alice"], [kept])
    got = await asyncio.to_thread(http, server, "GET", f"/v1/documents/{document}/pdf", tokens["alice"])
    check(stalled == [("0",)] and status == 204 and got == (200, kept),
          f"stalled uploads are ended and their places freed ({stalled}, {status}, {got[0]})")
    for raw in held:
        raw.close()


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


async def crowd(server, tokens):
    """500 connections at once, a user over the per-user limit, and a flood: refused in words, memory bounded,
    everyone else served."""
    document = "crowd-" + uuid.uuid4().hex[:8]
    owner = Client(server.url, tokens["alice"], document)
    await owner.connect()
    names = [f"crowd{i}" for i in range(20)]
    crowd_tokens = {name: server.admin("user", "add", name) for name in names}
    for name in names:
        server.admin("grant", name, document)
    before = resident_kib(server.process.pid)
    members = [Client(server.url, crowd_tokens[names[i % 20]], document) for i in range(500)]
    results = await asyncio.gather(*(member.connect() for member in members), return_exceptions=True)
    joined = [member for member, result in zip(members, results) if not isinstance(result, BaseException)]
    check(len(joined) == 500, f"500 connections at once are all served ({len(joined)})")
    ack = await owner.change(add("to-the-crowd"))
    await asyncio.gather(*(member.wait_for_head(ack["seq"]) for member in joined))
    check(all("to-the-crowd" in member.live() for member in joined), "an event reaches all 500 connections")
    during = resident_kib(server.process.pid)
    check(during - before < 200_000, f"500 connections cost under 200 MiB ({(during - before) // 1024} MiB)")
    extra = [Client(server.url, crowd_tokens["crowd0"], document) for _ in range(10)]
    refused = 0
    for client in extra:
        try:
            await client.connect()
        except RuntimeError as error:
            refused += "too-many-connections" in str(error)
    check(refused >= 1, f"a user's connections beyond the limit are refused in words ({refused} refused)")
    for member in joined + extra:
        await member.close()

    flooder = Client(server.url, tokens["alice"], document)
    await flooder.connect()
    for index in range(600):
        try:
            await flooder.send_raw(json.dumps({"type": "change", "op": f"flood-{index}", "xfdf": add(f"flood{index}")}))
        except websockets.ConnectionClosed:
            break
    await closed_by_server(flooder, 60)
    check(any(error["code"] == "too-fast" for error in flooder.errors), "a flood is answered with too-fast")
    check(flooder._socket.close_code is not None, "a connection that keeps flooding is closed")
    ack = await owner.change(add("after-the-flood"))
    check(ack["version"] == 1, "the server serves others during and after a flood")
    await owner.close()
    await flooder.close()


async def convergence(servers, tokens, clients, changes, seed, kill_at=None):
    """Client i talks to instance i mod len(servers); a kill -9 (kill_at) hits the first instance."""
    random.seed(seed)
    server = servers[0]
    document = "converge-" + uuid.uuid4().hex[:8]
    users = ["alice", "bob"]
    first = Client(server.url, tokens["alice"], document)
    await first.connect()
    server.admin("grant", "bob", document)
    # A third of the clients take one event per frame, the rest batches.
    members = [first] + [Client(servers[i % len(servers)].url, tokens[users[i % 2]], document, batches=i % 3 != 1)
                         for i in range(1, clients)]
    for client in members[1:]:
        await client.connect()
    acked = []
    sent = 0

    async def work(client, index):
        nonlocal sent
        mine = []
        for step in range(changes):
            if random.random() < 0.05:
                client.drop()
                try:
                    await client._reader
                except Exception:
                    pass
                await reconnect(client)
            kind = random.random()
            try:
                if not mine or kind < 0.5:
                    name = f"c{index}-{step}"
                    ack = await client.change(add(name, page=random.randint(0, 3)))
                    mine.append(name)
                elif kind < 0.8:
                    name = random.choice(mine)
                    version = client.annotations.get(name, {}).get("version", 1)
                    ack = await client.change(modify(name, text=f"v{step}"), base=version)
                else:
                    name = mine.pop(random.randrange(len(mine)))
                    version = client.annotations.get(name, {}).get("version", 1)
                    ack = await client.change(delete(name), base=version)
                acked.append(ack["op"])
                sent += 1
            except Refused as refusal:
                if refusal.frame["code"] not in ("stale",):
                    check(False, f"unexpected refusal in convergence: {refusal}")
            except ConnectionError:
                await reconnect(client)
            if kill_at is not None and sent == kill_at and server.process.poll() is None:
                server.kill()
                server.start(server.port())

    async def reconnect(client):
        for attempt in range(100):
            try:
                await client.resume()
                return
            except (OSError, websockets.InvalidStatus, websockets.InvalidMessage, websockets.ConnectionClosed, RuntimeError):
                await asyncio.sleep(0.05 * (attempt + 1) * random.random())

    await asyncio.gather(*(work(client, index) for index, client in enumerate(members)))
    rows, live = log(server.database, document)
    seqs = [seq for seq, _ in rows]
    check(seqs == list(range(1, len(seqs) + 1)), "the log is gapless")
    ops = [op for _, op in rows]
    check(len(ops) == len(set(ops)), "no operation is logged twice")
    check(set(acked) <= set(ops), f"every acknowledged change is in the log ({len(set(acked) - set(ops))} lost)")
    for client in members:
        if client._reader is None or client._reader.done():
            await reconnect(client)
        await client.wait_for_head(seqs[-1])
        check(client.live() == {name: (version, client.live().get(name, (0, ""))[1]) for name, version in live.items()},
              "every client ends with the database's annotations")
    late = Client(servers[-1].url, tokens["bob"], document)
    await late.connect()
    await late.wait_for_head(seqs[-1])
    check({n: v for n, (v, _) in late.live().items()} == live, "a newcomer's snapshot equals the database")
    for client in members + [late]:
        await client.close()
    return len(rows)


def redline(binary, server, token, *arguments, check_exit=True):
    result = subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "REDLINE_TOKEN": token, "XDG_CONFIG_HOME": server.folder})
    if check_exit and result.returncode != 0:
        raise RuntimeError(f"redline {' '.join(arguments)}: exit {result.returncode}: {result.stderr}")
    return result


async def command_line_rules(server_binary, redline_binary, folder):
    """Typos are refused before anything is made; a second server never overwrites the first one's saved token."""
    home = os.path.join(folder, "rules")
    os.makedirs(home)
    server_binary, redline_binary = os.path.abspath(server_binary), os.path.abspath(redline_binary)
    for arguments in (["--database", "garbage"], ["user", "list", "--database", "postgres:typo"],
                      ["--database", "sqlite:"], ["grant", "bob", "bad id!", "--database", "sqlite:" + os.path.join(home, "r.sqlite")]):
        result = subprocess.run([server_binary, *arguments], cwd=home, capture_output=True, text=True, timeout=60,
                                env={**os.environ, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home})
        check(result.returncode == 64 and "\n" in result.stderr, f"{arguments} is refused as bad usage ({result.returncode})")
    check(sorted(os.listdir(home)) == [], f"a mistyped --database makes no file ({os.listdir(home)})")
    for blank in ("", "   "):
        refused = subprocess.run([server_binary, "user", "add", blank, "--database", "sqlite:" + os.path.join(home, "blank.sqlite")],
                                 capture_output=True, text=True, timeout=60, env={**os.environ, "XDG_CONFIG_HOME": home})
        check(refused.returncode == 64 and "cannot be a user name: it is empty or blank" in refused.stderr
              and refused.stderr.startswith("redline serve: "),
              f"user add {blank!r} is refused in one line naming why ({refused.returncode}: {refused.stderr.strip()})")
    # A folder named for the database is made, the owner's alone; one that cannot be is a failure, not bad usage.
    deeper = os.path.join(folder, "made", "for", "it", "review.sqlite")
    made = subprocess.run([server_binary, "user", "add", "zed", "--database", "sqlite:" + deeper], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "XDG_CONFIG_HOME": home})
    mode = os.stat(os.path.dirname(deeper)).st_mode & 0o777 if os.path.isdir(os.path.dirname(deeper)) else None
    check(made.returncode == 0 and mode == 0o700 and os.path.exists(deeper),
          f"--database sqlite:PATH makes its folder, mode 0700 ({made.returncode}, {mode and oct(mode)}: {made.stderr.strip()})")
    blocked = subprocess.run([server_binary, "user", "list", "--database", "sqlite:/proc/redline/review.sqlite"],
                             capture_output=True, text=True, timeout=60, env={**os.environ, "XDG_CONFIG_HOME": home})
    check(blocked.returncode == 1 and "cannot open the database /proc/redline/review.sqlite: its folder cannot be made" in blocked.stderr,
          f"a database that cannot be made is a failure in words ({blocked.returncode}: {blocked.stderr.strip()})")
    watch = subprocess.run([redline_binary, "collab", "watch", "bad id!"], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "REDLINE_TOKEN": "rl_x", "XDG_CONFIG_HOME": home})
    check(watch.returncode == 1 and "not a document id" in watch.stderr,
          f"redline collab watch with a malformed id is bad usage, nothing sent ({watch.returncode}: {watch.stderr.strip()})")
    for since in ("-1", "-5"):
        negative = subprocess.run([redline_binary, "collab", "watch", "rules-doc", "--since", since], capture_output=True,
                                  text=True, timeout=60, env={**os.environ, "REDLINE_TOKEN": "rl_x", "XDG_CONFIG_HOME": home})
        check(negative.returncode != 0 and "--since takes an event number from 0" in negative.stderr,
              f"redline collab watch --since {since} is refused as a number out of range ({negative.returncode}: {negative.stderr.strip()})")
    first = Server(server_binary, home, database="sqlite:" + os.path.join(home, "first.sqlite"))
    first.start()
    token_file = os.path.join(home, "redline", "collab-token")
    saved = open(token_file).read()
    second = Server(server_binary, home, database="sqlite:" + os.path.join(home, "second.sqlite"))
    second.start()
    check(open(token_file).read() == saved and any("kept" in line for line in second.early),
          f"a second server keeps the first one's saved token and says so ({second.early})")
    client = Client(first.url, saved.strip(), "rules-doc")
    await client.connect()
    check(client.user, "the first server's saved token still works after a second server started")
    await client.close()
    for server in (first, second):
        await asyncio.to_thread(server.stop)


async def retention(binary, folder):
    """--keep-events N: a client further behind than the last N events receives the whole set; one within them
    resumes with the events it missed; the log holds no more than N and the trimming stride."""
    server = Server(binary, folder, ["--keep-events", "10"], database="sqlite:" + os.path.join(folder, "retention.sqlite"))
    token = server.admin("user", "add", "alice")
    server.start()
    try:
        document = "keep-" + uuid.uuid4().hex[:8]
        writer = Client(server.url, token, document)
        await writer.connect()
        for index in range(40):
            await writer.change(add(f"kept{index}"))
        behind = Client(server.url, token, document)
        behind.head = 5
        welcome = await behind.connect(since=5)
        check(welcome["snapshot"] and len(behind.live()) == 40,
              f"a client 35 events behind a log that keeps 10 receives the whole set ({welcome}, {len(behind.live())})")
        near = Client(server.url, token, document)
        near.head = 35
        welcome = await near.connect(since=35)
        check(not welcome["snapshot"] and [event["seq"] for event in near.events] == [36, 37, 38, 39, 40],
              f"a client 5 events behind resumes with those 5 ({welcome}, {[event['seq'] for event in near.events]})")
        kept = rows(server.database, f"SELECT count(*) FROM events WHERE document = '{document}'")
        check(int(kept[0][0]) <= 11, f"the log keeps 10 events and the one not trimmed yet at most ({kept})")
        for client in (writer, behind, near):
            await client.close()
    finally:
        code = await asyncio.to_thread(server.stop)
    check(code == 0, "the server with --keep-events stops cleanly")


def many_annotations_pdf(path, count):
    """A one-page PDF with `count` Text annotations, each with its /NM, and one Ink annotation without strokes."""
    import pikepdf
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(612, 792))
    annots = pikepdf.Array()
    for index in range(count):
        x, y = 20 + (index % 50) * 11, 20 + (index // 50) * 11 % 740
        annots.append(pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text, Rect=[x, y, x + 10, y + 10],
            Contents=pikepdf.String(f"note {index}"), NM=pikepdf.String(f"many-{index}"), T=pikepdf.String("someone"))))
    annots.append(pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Ink, Rect=[300, 300, 320, 320], NM=pikepdf.String("strokeless"))))
    pdf.pages[0].Annots = annots
    pdf.save(path)


def large_share(server, token, redline_binary, count=600):
    """More annotations than the server takes in one burst: the client keeps to the server's pace, and says what
    XFDF cannot carry instead of claiming the server had it."""
    path = os.path.join(server.folder, f"many-{uuid.uuid4().hex[:6]}.pdf")
    many_annotations_pdf(path, count)
    shared = redline(redline_binary, server, token, "collab", "share", path,
                     "--server", server.url, check_exit=False)
    check(shared.returncode == 0 and f"{count} annotations sent" in shared.stderr and "1 left out" in shared.stderr,
          f"sharing {count} annotations works at the server's pace and names what XFDF cannot carry "
          f"({shared.returncode}: {shared.stderr.strip()[-300:]})")
    check("had already" not in shared.stderr, f"a first share claims nothing was on the server already ({shared.stderr.strip()[-200:]})")
    rows, live = log(server.database, shared.stdout.strip()) if shared.returncode == 0 else ([], {})
    check(len(live) == count, f"all {count} shared annotations are in the database ({len(live)})")
    again = redline(redline_binary, server, token, "collab", "push", path, "--server", server.url, check_exit=False)
    check(again.returncode == 0 and "0 annotations sent" in again.stderr and f"{count} the server had already" in again.stderr,
          f"pushing the same file again sends nothing and says the server had them ({again.stderr.strip()[-200:]})")


async def interoperation(server, tokens, binary, fixture):
    """The Swift client (redline collab) and this one, on one document."""
    folder = server.folder
    shared = redline(binary, server, tokens["alice"], "collab", "share", fixture, "--server", server.url)
    document = shared.stdout.strip()
    local = json.loads(redline(binary, server, tokens["alice"], "annotations", "--json", fixture).stdout)
    python = Client(server.url, tokens["alice"], document)
    await python.connect()
    check(len(python.live()) == len([a for a in local if a.get("type") != "Link"]) and python.live(),
          f"the Python client sees every annotation the Swift client shared ({len(python.live())})")
    watcher = subprocess.Popen([binary, "collab", "watch", document, "--server", server.url, "--since", str(python.head)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                               env={**os.environ, "REDLINE_TOKEN": tokens["alice"], "XDG_CONFIG_HOME": folder})
    ack = await python.change(add("from-python", text="Written by the Python client"))
    try:
        line = await asyncio.wait_for(asyncio.to_thread(watcher.stdout.readline), 60)
    except asyncio.TimeoutError:
        line = ""
    # SIGKILL: a test runner may start its children with SIGTERM ignored, and watch runs until stopped.
    watcher.kill()
    _, watch_errors = watcher.communicate()
    check(line, f"redline collab watch printed the event within a minute ({watch_errors})")
    event = json.loads(line)["event"] if line else {"seq": None, "annotations": [{"name": None}]}
    check(event["seq"] == ack["seq"] and event["annotations"][0]["name"] == "from-python",
          "redline collab watch prints the Python client's event as a JSON line")
    # A --since beyond the log is answered with the whole set, and watch says so first.
    beyond = subprocess.Popen([binary, "collab", "watch", document, "--server", server.url, "--since", str(ack["seq"] + 1000)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                              env={**os.environ, "REDLINE_TOKEN": tokens["alice"], "XDG_CONFIG_HOME": folder})
    try:
        line = await asyncio.wait_for(asyncio.to_thread(beyond.stdout.readline), 60)
    except asyncio.TimeoutError:
        line = ""
    beyond.kill()
    _, beyond_errors = beyond.communicate()
    check(line.startswith('{"head"') or '"type":"snapshot"' in line.replace(" ", ""),
          f"redline collab watch --since past the head prints the set ({line[:80]!r})")
    check(f"ends at event {ack['seq']}, before {ack['seq'] + 1000}" in beyond_errors,
          f"and says first that the log ends before --since ({beyond_errors.strip()})")
    victim = next(name for name, entry in python.annotations.items() if not entry["deleted"] and not entry.get("inReplyTo")
                  and name != "from-python")
    await python.change(delete(victim), base=python.annotations[victim]["version"])
    await python.change(add("far-away", page=999))
    pulled = os.path.join(folder, "pulled.pdf")
    result = redline(binary, server, tokens["alice"], "collab", "pull", fixture, "--output", pulled, "--server", server.url)
    check("left out far-away" in result.stderr,
          f"an annotation on a page the PDF lacks is left out and named, the rest pulled ({result.stderr.strip()})")
    names = {a["id"] for a in json.loads(redline(binary, server, tokens["alice"], "annotations", "--json", pulled).stdout)}
    check("from-python" in names, "redline collab pull writes the Python client's annotation into the copy")
    check(victim not in names, "an annotation deleted through the Python client is gone from the pulled copy")
    fetched = os.path.join(folder, "fetched.pdf")
    redline(binary, server, tokens["alice"], "collab", "get", document, "--output", fetched, "--server", server.url)
    fetched_names = {a["id"] for a in json.loads(redline(binary, server, tokens["alice"], "annotations", "--json", fetched).stdout)}
    check(fetched_names == names, "redline collab get gives the shared PDF with the same annotations as a pull")
    outsider = redline(binary, server, tokens["dave"], "collab", "pull", fixture, "--output", os.path.join(folder, "no.pdf"),
                       "--server", server.url, check_exit=False)
    check(outsider.returncode == 4 and "forbidden" in outsider.stderr and not os.path.exists(os.path.join(folder, "no.pdf")),
          f"a non-member's pull is refused in words, exit 4, nothing written ({outsider.returncode}: {outsider.stderr.strip()})")
    await python.close()


async def watch_follows(server_binary, redline_binary, folder):
    """`redline collab watch` carries on across a server restart after the last event it printed, printing nothing
    twice; `--once` ends with exit 4 when the connection ends."""
    server = Server(server_binary, os.path.join(folder, "watch"))
    os.makedirs(server.folder, exist_ok=True)
    token = server.admin("user", "add", "alice")
    server.start()
    environment = {**os.environ, "REDLINE_TOKEN": token, "XDG_CONFIG_HOME": server.folder}

    def watcher(*extra):
        return subprocess.Popen([redline_binary, "collab", "watch", "followed", "--server", server.url, *extra],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                                env=environment)

    async def line_of(stream):
        try:
            return await asyncio.wait_for(asyncio.to_thread(stream.readline), 60)
        except asyncio.TimeoutError:
            return ""

    writer = Client(server.url, token, "followed")
    await writer.connect()
    first = await writer.change(add("before-restart", text="Before"))
    follower = watcher()
    once = watcher("--once")
    try:
        seen = [await line_of(follower.stdout), await line_of(once.stdout)]
        check(all('"before-restart"' in line for line in seen), f"both watchers print the first event ({seen})")
        await writer.close()
        port = server.port()
        check(server.stop() == 0, "the server stops on SIGTERM with watchers connected")
        said = await line_of(follower.stderr)
        check("connecting again" in said, f"watch says it connects again when the server goes ({said.strip()})")
        ended = await asyncio.to_thread(once.wait, 60)
        check(ended == 4, f"watch --once ends with exit 4 when the server goes (exit {ended})")
        server.start(port)
        writer = Client(server.url, token, "followed")
        await writer.connect()
        second = await writer.change(add("after-restart", text="After"))
        again = await line_of(follower.stderr)
        check(f"carrying on after event {first['seq']}" in again, f"watch says where it carries on ({again.strip()})")
        line = await line_of(follower.stdout)
        event = json.loads(line)["event"] if line.strip() else {}
        check(event.get("seq") == second["seq"] and event["annotations"][0]["name"] == "after-restart",
              f"after the restart watch prints the next event, and not the first again ({line.strip()[:120]})")
        await writer.close()
    finally:
        for process in (follower, once):
            process.kill()
            process.wait()
        server.stop()


async def tls(binary, folder, tokens_database):
    """--tls-cert and --tls-key: wss:// with a certificate the client trusts; a plain client gets nothing."""
    import ssl
    key, certificate = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    server = Server(binary, folder, ["--tls-cert", certificate, "--tls-key", key])
    server.database = tokens_database
    url = server.start()
    check(url.startswith("wss://"), f"with a certificate the server speaks wss:// ({url})")
    context = ssl.create_default_context(cafile=certificate)
    token = server.admin("user", "add", "tls-user")
    client = Client(url, token, "tls-" + uuid.uuid4().hex[:8], ssl=context)
    await client.connect()
    ack = await client.change(add("over-tls"))
    check(ack["version"] == 1, "a change over TLS is acknowledged")
    await client.close()
    plain = Client(url.replace("wss://", "ws://"), token, "tls-plain")
    try:
        await asyncio.wait_for(plain.connect(), 30)
        check(False, "a plain connection to a TLS server is refused")
    except Exception:
        pass
    refused = subprocess.run([binary, "--listen", "0.0.0.0:0", "--database", tokens_database],
                             capture_output=True, text=True, timeout=60)
    check(refused.returncode != 0 and "--tls-cert" in refused.stderr,
          f"listening beyond loopback without TLS or --insecure is refused in words ({refused.stderr.strip()})")
    await asyncio.to_thread(server.stop)


def pdf_without_id(path):
    """A one-page PDF with a note and no /ID in its trailer, written by hand (every library here adds one)."""
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
        "<< /Type /Annot /Subtype /Text /Rect [100 700 120 720] /NM (no-id-note) /T (Someone) /Contents (Hello) >>",
    ]
    out = b"%PDF-1.7\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    with open(path, "wb") as file:
        file.write(out)


def identity_without_id(server, tokens, binary):
    """A PDF without /ID is shared under a hash of its bytes; pulled and fetched copies carry that id, so pushing
    from a copy reaches the same document."""
    original = os.path.join(server.folder, "no-id.pdf")
    pdf_without_id(original)
    document = redline(binary, server, tokens["alice"], "collab", "share", original, "--server", server.url).stdout.strip()
    copy = os.path.join(server.folder, "no-id-copy.pdf")
    redline(binary, server, tokens["alice"], "collab", "pull", original, "--output", copy, "--server", server.url)
    pushed = redline(binary, server, tokens["alice"], "collab", "push", copy, "--server", server.url, check_exit=False)
    check(pushed.returncode == 0 and document in pushed.stderr,
          f"a pulled copy of a PDF without /ID is still the shared document ({document}: {pushed.stderr.strip()})")
    fetched = os.path.join(server.folder, "no-id-fetched.pdf")
    redline(binary, server, tokens["alice"], "collab", "get", document, "--output", fetched, "--server", server.url)
    again = redline(binary, server, tokens["alice"], "collab", "push", fetched, "--server", server.url, check_exit=False)
    check(again.returncode == 0 and document in again.stderr, f"a fetched copy is the shared document too ({again.stderr.strip()})")


def newcomer(binary, fixture):
    """The README's two commands: `redline serve` with no arguments, then `redline collab share` and `pull` with none
    of --server or --token, on a machine with no set-up (fresh XDG folders)."""
    with tempfile.TemporaryDirectory() as home:
        environment = {**os.environ, "XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_DATA_HOME": os.path.join(home, "data"),
                       "USER": "newcomer"}
        environment.pop("REDLINE_TOKEN", None)
        import socket
        probe = socket.socket()
        try:
            probe.bind(("127.0.0.1", 8790))
            busy = False
        except OSError:
            busy = True
        finally:
            probe.close()
        server = subprocess.Popen([binary, "serve"], stderr=subprocess.PIPE, text=True, env=environment)
        if busy:
            # Something else holds the default port: what the user is told is checked instead.
            said = server.stderr.read()
            check(server.wait(timeout=60) != 0 and "8790 is in use" in said and "--listen" in said,
                  f"redline serve on a taken port says so and how to choose another ({said.strip()})")
            return
        said = []
        for line in server.stderr:
            said.append(line)
            if line.startswith("Redline server listening on "):
                break
        check(said and said[-1].strip() == "Redline server listening on ws://127.0.0.1:8790",
              f"redline serve listens on loopback port 8790 ({said})")
        token_file = os.path.join(home, "config", "redline", "collab-token")
        check(os.path.exists(token_file) and (os.stat(token_file).st_mode & 0o777) == 0o600,
              "the first start saves the owner's token, readable by the owner only")
        database = os.path.join(home, "data", "redline", "server", "redline.sqlite")
        check(os.path.exists(database) and (os.stat(os.path.dirname(database)).st_mode & 0o777) == 0o700,
              "the database lives under XDG_DATA_HOME/redline/server, a folder only its owner reads")
        shared = subprocess.run([binary, "collab", "share", fixture], capture_output=True, text=True, env=environment, timeout=120)
        check(shared.returncode == 0 and len(shared.stdout.strip()) == 32, f"redline collab share works with no options ({shared.stderr})")
        copy = os.path.join(home, "copy.pdf")
        pulled = subprocess.run([binary, "collab", "pull", fixture, "--output", copy], capture_output=True, text=True,
                                env=environment, timeout=120)
        check(pulled.returncode == 0 and os.path.exists(copy), f"redline collab pull works with no options ({pulled.stderr})")
        folder_files = {name: os.stat(os.path.join(os.path.dirname(database), name)).st_mode & 0o777
                        for name in os.listdir(os.path.dirname(database))}
        check(len(folder_files) >= 2 and set(folder_files.values()) == {0o600},
              f"the database and its -wal and -shm files are readable by their owner only ({folder_files})")
        listed = json.loads(subprocess.run([binary, "annotations", "--json", copy], capture_output=True, text=True).stdout or "[]")
        check(listed and all(a["author"] == "newcomer" for a in listed if a.get("type") != "Link"),
              "the pulled copy carries the shared annotations, authored by the user who shared them")
        server.send_signal(signal.SIGTERM)
        check(server.wait(timeout=60) == 0, "SIGTERM ends redline serve with status 0")


def b64url(data):
    import base64
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(key, claims, header=None):
    """A JWT signed with an Ed25519 key by openssl (EdDSA signatures are the raw 64 bytes JWS wants)."""
    head = b64url(json.dumps(header or {"alg": "EdDSA", "typ": "JWT"}).encode())
    body = b64url(json.dumps(claims).encode())
    with tempfile.NamedTemporaryFile() as data:
        data.write(f"{head}.{body}".encode())
        data.flush()
        signature = subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", key, "-rawin", "-in", data.name],
                                   capture_output=True, check=True).stdout
    return f"{head}.{body}.{b64url(signature)}"


async def refused_at_connect(client):
    try:
        await client.connect()
        return None
    except RuntimeError as refused:
        return str(refused)


def http(server, method, path, token, body=None):
    import urllib.error
    import urllib.request
    request = urllib.request.Request(server.url.replace("ws://", "http://") + path, data=body, method=method,
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


async def organisation_tokens(binary, folder):
    """JWTs an organisation signs: its key and issuer configured, the claims decide name, documents and expiry."""
    import time
    keys = {}
    for name in ("org", "stranger"):
        keys[name] = os.path.join(folder, f"{name}-key.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", keys[name]], check=True, capture_output=True)
    public = os.path.join(folder, "org-public.pem")
    subprocess.run(["openssl", "pkey", "-in", keys["org"], "-pubout", "-out", public], check=True, capture_output=True)
    server = Server(binary, folder, ["--jwt-public-key", public, "--jwt-issuer", "review.example"],
                    database="sqlite:" + os.path.join(folder, "jwt.sqlite"))
    alice = server.admin("user", "add", "alice")
    server.start()
    document = "jwt-" + uuid.uuid4().hex[:8]
    now = int(time.time())

    def claims(sub, access, **extra):
        return {"sub": sub, "exp": now + 600, "iss": "review.example", "documents": {document: access}, **extra}

    erin_token = mint(keys["org"], claims("erin", "write"))
    erin = Client(server.url, erin_token, document)
    await erin.connect()
    check(erin.access == "write" and erin.user == "erin", "a JWT's subject is the user, its documents claim the access")
    ack = await erin.change(add("jwt-note", title="Mallory"))
    frank = Client(server.url, mint(keys["org"], claims("frank", "read")), document)
    await frank.connect()
    await frank.wait_for_head(ack["seq"])
    check(frank.access == "read" and frank.annotations["jwt-note"]["author"] == "erin",
          "a read-only JWT receives, and the author is the token's subject")
    try:
        await frank.change(add("frank-note"))
        check(False, "a read-only JWT cannot send")
    except Refused as refusal:
        check(refusal.frame["code"] == "read-only", "a read-only JWT's change is refused as read-only")
    elsewhere = await refused_at_connect(Client(server.url, erin_token, "jwt-other"))
    check(elsewhere is not None and "forbidden" in elsewhere, f"a JWT opens only the documents it names ({elsewhere})")
    # Each refusal says why: a token the organisation's key signed is told which claim is wrong.
    without = lambda name: {k: v for k, v in claims("erin", "write").items() if k != name}
    cases = {
        "expired": (mint(keys["org"], {**claims("erin", "write"), "exp": now - 10}), "token-expired", "expired"),
        "another key": (mint(keys["stranger"], claims("erin", "write")), "unauthorized", "not one this server's key signed"),
        "another issuer": (mint(keys["org"], {**claims("erin", "write"), "iss": "elsewhere"}), "unauthorized", "issued by"),
        "no expiry": (mint(keys["org"], without("exp")), "unauthorized", "has no exp"),
        "no documents": (mint(keys["org"], without("documents")), "unauthorized", "grants no documents"),
        "documents of another shape": (mint(keys["org"], {**claims("erin", "write"), "documents": 7}), "unauthorized",
                                       "neither a list of ids nor an object"),
        "no sub": (mint(keys["org"], without("sub")), "unauthorized", "names no user"),
        "an empty sub": (mint(keys["org"], {**claims("erin", "write"), "sub": ""}), "unauthorized", "empty or blank"),
        "a blank sub": (mint(keys["org"], {**claims("erin", "write"), "sub": "   "}), "unauthorized", "empty or blank"),
        "a sub that is a number": (mint(keys["org"], {**claims("erin", "write"), "sub": 42}), "unauthorized", "sub that is not a string"),
        "an exp that is a string": (mint(keys["org"], {**claims("erin", "write"), "exp": str(now + 600)}), "unauthorized",
                                    "exp that is not a time"),
        "empty documents": (mint(keys["org"], {**claims("erin", "write"), "documents": {}}), "unauthorized", "documents claim is empty"),
        "an empty list of documents": (mint(keys["org"], {**claims("erin", "write"), "documents": []}), "unauthorized",
                                       "documents claim is empty"),
        "no iss": (mint(keys["org"], without("iss")), "unauthorized", "has no iss"),
        "nbf an hour ahead": (mint(keys["org"], {**claims("erin", "write"), "nbf": now + 3600}), "unauthorized", "not valid yet"),
        "alg none": (b64url(b'{"alg":"none","typ":"JWT"}') + "." + erin_token.split(".")[1] + ".", "unauthorized",
                     "not one this server's key signed"),
        "tampered": (erin_token.split(".")[0] + "." + b64url(json.dumps(claims("mallory", "write")).encode()) + "."
                     + erin_token.split(".")[2], "unauthorized", "not one this server's key signed"),
    }
    for what, (token, code, reason) in cases.items():
        refused = await refused_at_connect(Client(server.url, token, document))
        check(refused is not None and code in refused and reason in refused,
              f"a JWT with {what} is refused as {code}, saying {reason!r} ({refused})")
    # The server's own users meet the JWT users in the same document once granted.
    server.admin("grant", "alice", document)
    stored = Client(server.url, alice, document)
    await stored.connect()
    check("jwt-note" in stored.live(), "a user of the server's database sees what a JWT user wrote")
    # The shared PDF: uploaded with a write token, read with a read token, hidden from a token for other documents.
    pdf = b"%PDF-1.4\n%jwt\n"
    status, _ = http(server, "PUT", f"/v1/documents/{document}/pdf", erin_token, pdf)
    reader = mint(keys["org"], claims("frank", "read"))
    got = http(server, "GET", f"/v1/documents/{document}/pdf", reader)
    other = mint(keys["org"], {**claims("frank", "read"), "documents": {"jwt-other": "write"}})
    hidden = http(server, "GET", f"/v1/documents/{document}/pdf", other)
    check(status == 204 and got == (200, pdf) and hidden[0] == 404,
          f"the shared PDF follows the JWT's documents ({status}, {got[0]}, {hidden[0]})")
    # A token that expires while connected closes the connection then, with the reason.
    brief = Client(server.url, mint(keys["org"], {**claims("gina", "write"), "exp": int(time.time()) + 3}), document)
    refused = await refused_at_connect(brief)
    if refused is None:
        await asyncio.wait_for(brief._reader, 60)
        codes = [error["code"] for error in brief.errors]
    else:
        codes = ["token-expired"] if "token-expired" in refused else [refused]
    check(codes[-1:] == ["token-expired"], f"a JWT that expires while connected closes the connection ({codes})")
    for client in (erin, frank, stored):
        await client.close()
    code = await asyncio.to_thread(server.stop)
    check(code == 0, "the server with a JWT key stops cleanly")


def metric(server, name):
    import urllib.request
    with urllib.request.urlopen(server.url.replace("ws://", "http://") + "/metrics", timeout=30) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return 0.0


def fresh_database(url):
    """A new, empty database on the cluster `url` points at, and its URL."""
    name = "redline_suite_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", "-X", "-q", url, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True, timeout=60)
    base, _, query = url.partition("?")
    return base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")


async def terminated_backends(server, tokens, trials=4):
    """PostgreSQL backends killed in the middle of bursts of changes: every change is answered (or the connection
    closed with `unavailable`) and every document takes changes again; nothing waits for ever."""
    loop = asyncio.get_running_loop()
    big = "x" * 100_000
    given_up = sum("did not answer within" in line for line in server.log)
    for trial in range(trials):
        document = f"terminated-{trial}-" + uuid.uuid4().hex[:6]
        client = Client(server.url, tokens["alice"], document)
        await client.connect()
        sent = 60
        for index in range(60):
            try:
                await client.send_raw(json.dumps({"type": "change", "op": f"t-{trial}-{index}", "xfdf": add(f"t-{index}", text=big)}))
            except (websockets.ConnectionClosed, AttributeError):
                # Closed with unavailable after the kill: the rest is not sent. (websockets may fail a send that
                # races the close with an AttributeError from its transport.)
                sent = index
                break
            if index == 10 + 8 * trial:
                subprocess.run(["psql", "-X", "-q", server.database, "-c",
                                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()"],
                               capture_output=True, timeout=60)
        deadline = loop.time() + 90
        while client.answers < sent and client._socket.close_code is None and loop.time() < deadline:
            await asyncio.sleep(0.05)
        codes = {frame.get("code") for frame in client.errors}
        check(client.answers == 60 or codes == {"unavailable"},
              f"trial {trial}: every change is answered or the connection closed with unavailable "
              f"({client.answers} answers, {codes}, closed {client._socket.close_code})")
        await client.close()
        fresh = Client(server.url, tokens["alice"], document)
        try:
            await asyncio.wait_for(fresh.connect(), 60)
            ack = await asyncio.wait_for(fresh.change(add(f"after-{trial}")), 60)
        except (asyncio.TimeoutError, RuntimeError, ConnectionError) as error:
            ack = {"error": repr(error)}
        check(ack.get("version") == 1, f"trial {trial}: the document takes a change after its backend was killed ({ack})")
        await fresh.close()
    # A statement sent on a connection PostgreSQL had just closed used to go unanswered until the deadline gave up.
    late = [line for line in server.log if "did not answer within" in line][given_up:]
    check(not late, f"no call to the database waits for the deadline after a backend is killed ({late[:2]})")


FROZEN_CLIENT = r"""
import asyncio, json, sys, websockets
async def main():
    async with websockets.connect(sys.argv[1], additional_headers={"Authorization": "Bearer " + sys.argv[2]}) as socket:
        await socket.send(json.dumps({"type": "hello", "document": sys.argv[3]}))
        await socket.recv()
        print("joined", flush=True)
        await asyncio.sleep(3600)
asyncio.run(main())
"""


async def frozen_client_at_shutdown(binary, folder):
    """A client that stops reading (SIGSTOP: a laptop asleep) with megabytes of events waiting for it does not keep
    SIGTERM from ending the server: connections get the shutdown grace (10 s) to close, then are cut."""
    server = Server(binary, os.path.join(folder, "frozen"))
    os.makedirs(server.folder, exist_ok=True)
    token = server.admin("user", "add", "alice")
    server.start()
    frozen = subprocess.Popen([sys.executable, "-c", FROZEN_CLIENT, server.url.rstrip("/") + "/v1/socket", token, "frozen"],
                              stdout=subprocess.PIPE, text=True)
    try:
        check(frozen.stdout.readline().strip() == "joined", "the client that will freeze joined")
        os.kill(frozen.pid, signal.SIGSTOP)
        writer = Client(server.url, token, "frozen")
        await writer.connect()
        big = "x" * 100_000
        for index in range(60):
            await writer.change(add(f"frozen-{index}", text=big))
        server.process.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.to_thread(server.process.wait, 60)
        except subprocess.TimeoutExpired:
            server.kill()
            code = None
        check(code == 0, f"SIGTERM ends the server though a client stopped reading (exit {code})")
    finally:
        frozen.kill()
        frozen.wait()


async def postgres(binary, folder, url, clients, changes, seed, redline_binary=None, instances=3):
    """Several instances (three unless told) on one PostgreSQL database: the rights, hostile frames, convergence and
    a kill -9, with the clients spread over the instances."""
    database = fresh_database(url)
    servers = [Server(binary, folder, database=database) for _ in range(instances)]
    tokens = {name: servers[0].admin("user", "add", name) for name in ["alice", "bob", "carol", "dave"]}
    for server in servers:
        server.start()
    try:
        await rights(servers, tokens)
        counted = {2: "two", 3: "three"}.get(instances, str(instances))
        print(f"postgres rights: {counted} instances, every rule across them", flush=True)
        await hostile(servers[1], tokens)
        await pipelined(servers[0], tokens)
        print("postgres pipelined: changes answered in the order sent", flush=True)
        await batches(servers[1], tokens)
        print("postgres batches: the same events, batched or not", flush=True)
        await joining_order(servers[1], tokens)
        print("postgres joining: the welcome's head is the set's, answers come after the set", flush=True)
        await cross_instance_races(servers, tokens)
        print("postgres races: one change at two instances at once, decided once", flush=True)
        await shared_pdfs(servers[1], tokens)
        print("postgres shared PDFs: streamed in parts, four at once in bounded memory, failed uploads keep the old one", flush=True)
        await terminated_backends(servers[0], tokens)
        print("postgres backends killed mid-burst: every change answered, every document goes on", flush=True)
        if redline_binary:
            await asyncio.to_thread(large_share, servers[-1], tokens["alice"], redline_binary)
            print("postgres: 600 annotations shared at once through one instance", flush=True)
        before = [metric(server, "redline_commits_announced_total") for server in servers]
        events = await convergence(servers, tokens, clients, changes, seed)
        announced = [metric(server, "redline_commits_announced_total") - was for server, was in zip(servers, before)]
        # Every commit is announced to every instance: followers learn of it from NOTIFY, not the periodic check.
        check(all(count >= events for count in announced),
              f"every instance hears of every commit through LISTEN/NOTIFY ({announced} for {events} events)")
        print(f"postgres convergence: {instances} instances, {clients} clients, {events} events", flush=True)
        events = await convergence(servers, tokens, 6, 60, seed + 1, kill_at=120)
        print(f"postgres kill -9 of one instance mid-burst: {events} events, nothing acknowledged lost", flush=True)
    finally:
        codes = [await asyncio.to_thread(server.stop) for server in servers]
    check(codes == [0] * instances, f"SIGTERM ends every instance cleanly (exits {codes})")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redline", help="the redline binary, for the Swift client's part")
    parser.add_argument("--fixture", help="a PDF with annotations to share")
    parser.add_argument("--postgres", help="postgres:// URL of a cluster the suite may make databases in")
    parser.add_argument("--only-postgres", action="store_true")
    parser.add_argument("--instances", type=int, default=3, help="PostgreSQL instances (at least 2)")
    arguments = parser.parse_args()
    if arguments.postgres:
        with tempfile.TemporaryDirectory() as folder:
            await postgres(arguments.binary, folder, arguments.postgres, arguments.clients, arguments.changes, arguments.seed + 10,
                           arguments.redline, arguments.instances)
    if arguments.only_postgres:
        print("failures:", len(FAILURES))
        return 1 if FAILURES else 0
    with tempfile.TemporaryDirectory() as folder:
        server = Server(arguments.binary, folder)
        tokens = {name: server.admin("user", "add", name) for name in ["alice", "bob", "carol", "dave"]}
        server.start()
        try:
            await rights([server], tokens)
            await hostile(server, tokens)
            await pipelined(server, tokens)
            print("pipelined: changes answered in the order sent", flush=True)
            await batches(server, tokens)
            print("batches: the same events, batched or not", flush=True)
            await joining_order(server, tokens)
            print("joining: the welcome's head is the set's, answers come after the set", flush=True)
            await shared_pdfs(server, tokens)
            print("shared PDFs: streamed in parts, four at once in bounded memory, failed uploads keep the old one", flush=True)
            await crowd(server, tokens)
            await organisation_tokens(arguments.binary, folder)
            print("jwt: an organisation's tokens, their documents, expiry, forgeries", flush=True)
            await tls(arguments.binary, folder, server.database)
            print("tls: wss:// with --tls-cert, plain refused, loopback rule", flush=True)
            print("crowd: 500 connections, a user over the limit, a flood", flush=True)
            if arguments.redline:
                await interoperation(server, tokens, arguments.redline, arguments.fixture)
                await asyncio.to_thread(large_share, server, tokens["alice"], arguments.redline)
                print("interoperation with redline collab: share, watch, pull, get, 600 annotations at once", flush=True)
                identity_without_id(server, tokens, arguments.redline)
                print("identity: copies of a PDF without /ID stay the shared document", flush=True)
                await command_line_rules(arguments.binary, arguments.redline, folder)
                print("command line: typos refused, saved tokens kept", flush=True)
                await asyncio.to_thread(newcomer, arguments.redline, arguments.fixture)
                print("newcomer: redline serve, collab share, collab pull", flush=True)
                await watch_follows(arguments.binary, arguments.redline, folder)
                print("watch: follows the document across a server restart; --once ends", flush=True)
            grown = await snapshot_storm(server, tokens)
            print(f"storm: 25 joiners of a 30 MB document share one read of it (+{grown} MiB)", flush=True)
            await frozen_client_at_shutdown(arguments.binary, folder)
            print("shutdown: a client that stopped reading does not hold SIGTERM", flush=True)
            await retention(arguments.binary, folder)
            print("retention: --keep-events honoured, a client behind it gets the whole set", flush=True)
            events = await convergence([server], tokens, arguments.clients, arguments.changes, arguments.seed)
            print(f"convergence: {arguments.clients} clients, {events} events", flush=True)
            # Clients that drop mid-change are routine, not a server fault to warn about.
            noise = [line for line in server.log if "CancellationError" in line]
            check(not noise, f"dropped connections log no warnings ({noise[:2]})")
            events = await convergence([server], tokens, 6, 60, arguments.seed + 1, kill_at=120)
            print(f"kill -9 mid-burst: {events} events, nothing acknowledged lost", flush=True)
        finally:
            code = await asyncio.to_thread(server.stop)
        check(code == 0, f"SIGTERM ends the server cleanly (exit {code})")
    print("failures:", len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
