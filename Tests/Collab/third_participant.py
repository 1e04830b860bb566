"""A third reviewer beside two editors: adds a note, adds another and deletes it, through the Python client
written from docs/collaboration-protocol.md. Usage: third_participant.py URL TOKEN DOCUMENT-ID"""
import asyncio
import sys

from collab_client import Client, add, delete


async def main(url, token, document):
    client = Client(url, token, document, presence=True)
    await client.connect()
    # The two editors are in the document, and so is this client.
    await client.wait_for_presence(["alice", "bob", "carol"])
    print("present", ",".join(client.present))
    await client.change(add("carol-1", text="Carol's note"))
    await client.change(add("carol-2", text="Carol's mistake"))
    answer = await client.change(delete("carol-2"), base=1)
    await client.close()
    print("carol done", answer["type"])


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
