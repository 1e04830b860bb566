"""Benchmark of the collaboration server (make bench-collab): latency from one client's send to the other clients'
receipt, and changes accepted per second.

Usage: collab_bench.py SERVER-BINARY [--clients 50] [--rate 20] [--seconds 20] [--senders 32] [--flood 8000]
                       [--postgres URL --instances 2] [--flood-client redline-collab]
With --postgres, the instances share a fresh database on that cluster and clients are spread over them.
Prints the figures; asserts nothing.
"""
import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Collab"))
from collab_client import Client, add, modify  # noqa: E402
from server_suite import Server, fresh_database  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def latency(servers, tokens, clients, rate, seconds):
    document = "bench-latency-" + uuid.uuid4().hex[:8]
    members = [Client(servers[index % len(servers)].url, tokens[index % len(tokens)], document) for index in range(clients)]
    for member in members:
        await member.connect()
    sender, receivers = members[0], members[1:]
    sent_at = {}
    received = []

    def watch(client):
        original = client._apply

        def apply(event):
            if event["op"] in sent_at and event["seq"] > client.head:
                received.append(time.perf_counter() - sent_at[event["op"]])
            original(event)
        client._apply = apply

    for receiver in receivers:
        watch(receiver)
    count = int(rate * seconds)
    start = time.perf_counter()
    for index in range(count):
        op = str(uuid.uuid4())
        sent_at[op] = time.perf_counter()
        await sender.change(add(f"n{index}"), op=op)
        delay = start + (index + 1) / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    for receiver in receivers:
        await receiver.wait_for_head(sender.head)
    for member in members:
        await member.close()
    return received, count


async def throughput(servers, tokens, senders, total, documents=1):
    """Senders spread over `documents` documents (one document's changes take turns; separate documents do not)."""
    names = ["bench-flood-" + uuid.uuid4().hex[:8] for _ in range(documents)]
    clients = [Client(servers[index % len(servers)].url, tokens[index % len(tokens)], names[index % documents])
               for index in range(senders)]
    for client in clients:
        await client.connect()
    per = total // senders

    async def flood(client, index):
        window = 32
        pending = set()
        for step in range(per):
            pending.add(asyncio.ensure_future(client.change(add(f"f{index}-{step}"))))
            if len(pending) >= window:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.gather(*pending)

    start = time.perf_counter()
    await asyncio.gather(*(flood(client, index) for index, client in enumerate(clients)))
    elapsed = time.perf_counter() - start
    for client in clients:
        await client.close()
    return per * senders / elapsed


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--senders", type=int, default=32)
    parser.add_argument("--flood", type=int, default=8000)
    parser.add_argument("--postgres", help="postgres:// URL of a cluster to make a fresh database in")
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--documents", type=int, default=8, help="documents of the second throughput run")
    parser.add_argument("--flood-client", help="redline-collab: its bench-flood command sends the throughput runs' load")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if arguments.postgres:
            database = fresh_database(arguments.postgres)
            servers = [Server(arguments.binary, folder, ["--open"], database=database) for _ in range(arguments.instances)]
            where = f"PostgreSQL, {arguments.instances} instances"
        else:
            servers = [Server(arguments.binary, folder, ["--open"])]
            where = "SQLite, 1 instance"
        # One user per ten clients: a user may hold 32 connections.
        tokens = [servers[0].admin("user", "add", f"bench{index}") for index in range(max(1, arguments.clients // 10 + 1))]
        for server in servers:
            server.start()
        try:
            received, count = await latency(servers, tokens, arguments.clients, arguments.rate, arguments.seconds)
            print(f"{where}: latency, {arguments.clients} clients, {arguments.rate:g} events/s for {count} events: "
                  f"p50 {1000 * percentile(received, 0.5):.1f} ms, p99 {1000 * percentile(received, 0.99):.1f} ms, "
                  f"max {1000 * max(received):.1f} ms over {len(received)} receipts")
            # One document (its changes take turns), then spread: a server's capacity shows over many documents.
            for documents in sorted({1, arguments.documents, 32}):
                if arguments.flood_client:
                    # The Swift client: the Python one spends most of a core of the two decoding frames.
                    flood = await asyncio.to_thread(subprocess.run, [
                        arguments.flood_client, "bench-flood", "--servers", ",".join(server.url for server in servers),
                        "--tokens", ",".join(tokens), "--documents", str(documents), "--senders", str(arguments.senders),
                        "--changes", str(arguments.flood)], capture_output=True, text=True, timeout=600)
                    figure = (flood.stdout.strip() or flood.stderr.strip()).replace("accepted ", "", 1)
                    print(f"{where}: accepted {figure} (Swift client, 32 in flight each)")
                else:
                    rate = await throughput(servers, tokens, arguments.senders, arguments.flood, documents)
                    print(f"{where}: accepted {rate:.0f} changes/s over {documents} document{'s' if documents > 1 else ''} "
                          f"({arguments.senders} senders, {arguments.flood} changes, 32 in flight each)")
        finally:
            for server in servers:
                await asyncio.to_thread(server.stop)


if __name__ == "__main__":
    asyncio.run(main())
