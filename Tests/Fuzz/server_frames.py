"""Fuzzing the collaboration server's frames (make test runs a fixed seed): the hostile XFDF cases split into
single-annotation changes and sent as they are, and JSON frames mutated (wrong types, numbers at 2^31, 2^63 and
beyond, unknown fields, escapes, truncation). Every frame must get an answer (ack, refused or error) or close the
connection after repeated errors; the server must stay up and go on serving another client, and its log stay
gapless.

Usage: server_frames.py SERVER-BINARY [--seed N] [--cases N]
"""
import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import uuid

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "Collab"))
import hostile_xfdf  # noqa: E402
from collab_client import Client, Refused, add  # noqa: E402
from server_suite import Server, log  # noqa: E402

NUMBERS = [-1, 0, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 10**30, 1e308, -1e308, 0.5, "1", None, True, [], {}]
XFDF_OPEN = '<xfdf xmlns="http://ns.adobe.com/xfdf/">'
ELEMENT = re.compile(r"<(text|freetext|line|polygon|polyline|ink|highlight|square|circle|stamp)\b.*?(?:/>|</\1>)", re.S)


def frames_for(seed, index):
    """Frames of case `index`: changes made of the mutated XFDF, and mutated JSON around them."""
    rng = random.Random(seed * 7919 + index)
    case = hostile_xfdf.make_case(seed, index)
    text = case.data.decode("utf-8", "replace")
    elements = ELEMENT.findall(text)
    bodies = [m.group(0) for m in ELEMENT.finditer(text)] or [text]
    frames = []
    for body in bodies[:6]:
        part = rng.choice(["add", "add", "modify", "delete"])
        xfdf = XFDF_OPEN + (f"<{part}>{body}</{part}>" if part != "delete" else f'<delete><id page="0">{body[:40]}</id></delete>') + "</xfdf>"
        frame = {"type": "change", "op": str(uuid.uuid4()), "xfdf": xfdf}
        if part != "add" or rng.random() < 0.2:
            frame["base"] = rng.choice(NUMBERS)
        frames.append(json.dumps(frame))
    frames.append(json.dumps({"type": "change", "op": str(uuid.uuid4()), "xfdf": text}))
    mutated = {"type": rng.choice(["change", "hello", "event", "", "CHANGE", None]), "op": rng.choice([str(uuid.uuid4()), "", "../x", "\x1b[31m", 5]),
               "xfdf": rng.choice([text, "", None, 3]), "base": rng.choice(NUMBERS), "since": rng.choice(NUMBERS),
               "document": rng.choice(["d", "", "x" * 200, "\u202e", None])}
    raw = json.dumps(mutated)
    frames.append(raw[: rng.randrange(1, len(raw))] if rng.random() < 0.3 else raw)
    return frames, case.mutations, len(elements)


async def pipelined(client, frames):
    """Sends every frame at once; returns what is wrong with the answers, or None."""
    try:
        for text in frames:
            await client.send_raw(text)
        await client.answer_after(len(frames) - 1, timeout=60)
    except asyncio.TimeoutError:
        return f"{client.answers} answers in 60 s to {len(frames)} frames sent at once"
    except Exception:
        pass
    closed = client._socket.close_code is not None
    if not closed and client.answers != len(frames):
        return f"{client.answers} answers to {len(frames)} frames sent at once"
    def op_of(text):
        try:
            frame = json.loads(text)
        except ValueError:
            return None
        return frame.get("op") if isinstance(frame, dict) else None
    sent_ops = [op for op in map(op_of, frames) if isinstance(op, str)]
    answered_ops = [frame["op"] for frame in client.answer_frames if frame["type"] in ("ack", "refused")]
    position = 0
    for op in answered_ops:
        while position < len(sent_ops) and sent_ops[position] != op:
            position += 1
        if position == len(sent_ops):
            return f"answers out of the order sent: {answered_ops} for {sent_ops}"
        position += 1
    return None


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=60)
    arguments = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        server = Server(arguments.binary, folder)
        token = server.admin("user", "add", "fuzz")
        server.start()
        document = "fuzz-" + uuid.uuid4().hex[:8]
        witness = Client(server.url, token, document)
        await witness.connect()
        sent = answered = 0
        try:
            for index in range(arguments.cases):
                frames, mutations, _ = frames_for(arguments.seed, index)
                attacker = Client(server.url, token, document)
                await attacker.connect()
                before = len(attacker.errors)
                if index % 3 == 2:
                    # Every third case sends its frames without waiting: each is answered once, in the order sent.
                    problem = await pipelined(attacker, frames)
                    sent += len(frames)
                    answered += attacker.answers
                    if problem:
                        failures.append(f"case {index} ({', '.join(mutations)}): {problem}")
                    frames = []
                for text in frames:
                    if os.environ.get("FUZZ_TRACE"): print(index, text[:150], flush=True)
                    if attacker._socket.close_code is not None:
                        break
                    sent += 1
                    count = attacker.answers
                    try:
                        await attacker.send_raw(text)
                        if await attacker.answer_after(count):
                            answered += 1
                    except asyncio.TimeoutError:
                        failures.append(f"case {index} ({', '.join(mutations)}): no answer in 30 s to {text[:120]}")
                        break
                    except Exception:
                        break
                await attacker.close()
                if server.process.poll() is not None:
                    failures.append(f"case {index} ({', '.join(mutations)}): the server died ({server.process.returncode})")
                    break
                ack = await witness.change(add(f"witness-{index}"))
                if ack.get("version") != 1:
                    failures.append(f"case {index}: the witness was not served")
            rows, _ = log(server.database, document)
            seqs = [seq for seq, _ in rows]
            if seqs != list(range(1, len(seqs) + 1)):
                failures.append("the log has gaps")
            await witness.close()
        finally:
            await asyncio.to_thread(server.stop)
    print(f"server frames: seed {arguments.seed}, {arguments.cases} cases, {sent} frames, {answered} changes answered, "
          f"{len(failures)} failing")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
