"""Opens STREAMS Server-Sent Events streams on one endpoint's change feed and one poller that asks the change feed
once a second, rewrites the endpoint's file ROUNDS times, and prints how long after each commit (the endpoint's
changed_at, from the database) the last stream had the event, and the poller the change.

    python3 streams.py URL DATABASE FILE STREAMS ROUNDS PID

Standard library only: asyncio sockets, HTTP/1.1 with chunked bodies read by hand.
"""

import asyncio
import json
import os
import sqlite3
import statistics
import sys
import time
from datetime import datetime

URL, DATABASE, FILE = sys.argv[1], sys.argv[2], sys.argv[3]
STREAMS, ROUNDS, PID = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
HOST, PORT = URL.removeprefix("http://").split(":")
PORT = int(PORT)
PATH = "/v1/endpoints/users/changes"

arrivals = {}  # version -> [arrival time of each stream's event]
polled = {}  # version -> when the poller saw it


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def write_users(generation):
    users = [{"id": i, "name": f"user {i}", "generation": generation if i == 1 else 0} for i in range(1, 101)]
    temporary = FILE + ".new"
    with open(temporary, "w") as out:
        json.dump(users, out)
    os.utime(temporary, (1_600_000_000 + generation, 1_600_000_000 + generation))
    os.replace(temporary, FILE)


async def stream(opened):
    reader, writer = await asyncio.open_connection(HOST, PORT)
    writer.write(
        f"GET {PATH}?since=0 HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert b" 200 " in head.split(b"\r\n")[0], head
    opened.release()
    pending = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).strip(), 16)
        if size == 0:
            return
        pending += await reader.readexactly(size)
        await reader.readexactly(2)
        while b"\n\n" in pending:
            event, pending = pending.split(b"\n\n", 1)
            now = time.time()
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    version = json.loads(line[6:])["version"]
                    arrivals.setdefault(version, []).append(now)


async def poller(stop):
    """Asks the change feed once a second, as a client without the stream would."""
    since = 0
    reader, writer = await asyncio.open_connection(HOST, PORT)
    while not stop.is_set():
        writer.write(f"GET {PATH}?since={since} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
        body = json.loads(await reader.readexactly(length))
        now = time.time()
        if body["version"] > since:
            since = body["version"]
            polled.setdefault(since, now)
        await asyncio.sleep(1)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def main():
    write_users(1)
    rss_before = rss_kib(PID)
    opened = asyncio.Semaphore(0)
    streams = [asyncio.create_task(stream(opened)) for _ in range(STREAMS)]
    for _ in range(STREAMS):
        await opened.acquire()
    print(f"{STREAMS} streams open", file=sys.stderr)
    stop = asyncio.Event()
    poll = asyncio.create_task(poller(stop))
    await asyncio.sleep(3)  # past the first events
    first = max(arrivals, default=0)
    rss_open = rss_kib(PID)
    for generation in range(2, ROUNDS + 2):
        write_users(generation)
        target = first + generation - 1
        deadline = time.time() + 30
        while (len(arrivals.get(target, [])) < STREAMS or target not in polled) and time.time() < deadline:
            await asyncio.sleep(0.05)
        print(f"round {generation - 1}: version {target}, {len(arrivals.get(target, []))} streams had it, "
              f"poller {'had' if target in polled else 'missed'} it", file=sys.stderr)
        # Spread the rounds over the poller's second.
        await asyncio.sleep(0.37)
    stop.set()
    rss_end = rss_kib(PID)
    last_stream, poll_seen, every_stream, missing = [], [], [], 0
    for version in range(first + 1, first + ROUNDS + 1):
        times = arrivals.get(version, [])
        if len(times) < STREAMS:
            missing += STREAMS - len(times)
        committed = committed_at.get(version)
        if committed is None or not times or version not in polled:
            continue
        last_stream.append(max(times) - committed)
        every_stream.extend(t - committed for t in times)
        poll_seen.append(polled[version] - committed)
    for task in streams + [poll]:
        task.cancel()
    ms = lambda seconds: f"{seconds * 1000:.1f}"
    print(f"streams {STREAMS}, rounds {len(last_stream)}, events missing {missing}")
    print(f"rss_kib before {rss_before} open {rss_open} end {rss_end}")
    print(f"last_stream_ms median {ms(statistics.median(last_stream))} p99 {ms(percentile(last_stream, 0.99))}")
    print(f"every_stream_ms median {ms(statistics.median(every_stream))} p99 {ms(percentile(every_stream, 0.99))}")
    print(f"poll_ms median {ms(statistics.median(poll_seen))} p99 {ms(percentile(poll_seen, 0.99))}")


committed_at = {}


async def watch_commits():
    """Reads each new version's changed_at (when its sync stored it, in milliseconds) once it is committed."""
    seen = 0
    while True:
        try:
            with sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True) as db:
                row = db.execute("SELECT changed_at, version FROM syncd_endpoints WHERE name = 'users'").fetchone()
        except sqlite3.Error:
            row = None
        if row and row[1] > seen:
            seen = row[1]
            committed_at[seen] = datetime.fromisoformat(row[0].replace("Z", "+00:00")).timestamp()
        await asyncio.sleep(0.01)


async def run():
    watcher = asyncio.create_task(watch_commits())
    await main()
    watcher.cancel()


asyncio.run(run())
