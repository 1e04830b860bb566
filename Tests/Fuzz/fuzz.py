#!/usr/bin/env python3
"""The fuzzing driver: runs `redline annotations --json`, `redline bookmarks --json`, `redline apply`, `flatten`,
`xfdf export`, `search`, `reply`, `bookmarks add` on hostile PDFs (hostile_pdfs.py), and `redline xfdf import` of
hostile XFDF (hostile_xfdf.py) into a clean PDF or the hostile one, with a time and memory limit; on the first case
of each class and every 50th the editor itself runs in tmux, and must draw a frame and quit. It fails on anything a
user must never see:

- a crash (a signal, an exit code other than Redline's 0-3, a Swift runtime backtrace);
- a hang (the time limit);
- an error that is not one line, or that carries terminal control characters;
- JSON output that does not parse or holds raw control characters;
- `apply`, `flatten` or `xfdf import` exiting 0 with an output qpdf cannot open;
- `xfdf export` exiting 0 with output that is not XML, or holds raw control characters.

usage: fuzz.py --binary PATH [--seed N] [--cases N | --seconds S] [--timeout S] [--memory-mb M]
               [--failures DIR] [--jobs N]
The same seed and case number always make the same document. Failing cases are kept in --failures."""
import argparse
import csv
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_markup  # noqa: E402
import hostile_pdfs  # noqa: E402
import hostile_xfdf  # noqa: E402
from xml.etree import ElementTree  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKUP = {"version": 1, "items": [
    {"page": 1, "kind": "text", "x": 1, "y": 1, "text": "Fuzz \u00e9", "size": 8},
    {"page": 1, "kind": "ink", "strokes": [[[1, 1], [2, 2]]], "width": 1},
    {"page": 1, "kind": "rectangle", "points": [[1, 1], [3, 3]], "width": 0.5, "fill": True},
    {"page": 1, "kind": "arrow", "points": [[1, 1], [3, 2]], "width": 0.5},
    {"page": 1, "kind": "polygon", "points": [[1, 1], [3, 1], [2, 3]], "width": 0.5},
    {"page": 1, "kind": "note", "points": [[1, 1], [13, 13]], "comment": "Fuzz \u00e9\nnote"},
]}
BACKTRACE = re.compile(r"Fatal error|Stack dump|Current stack trace|Illegal instruction|Segmentation fault|"
                       r"^\s*\d+\s+0x[0-9a-f]+|#\d+ 0x", re.M)
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]")


def limits(memory_mb):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def run(arguments, timeout, memory_mb, environment):
    started = time.monotonic()
    try:
        result = subprocess.run(arguments, capture_output=True, timeout=timeout, preexec_fn=limits(memory_mb),
                                env=environment)
        return result.returncode, result.stdout, result.stderr, time.monotonic() - started
    except subprocess.TimeoutExpired as expired:
        return None, expired.stdout or b"", expired.stderr or b"", time.monotonic() - started


def judge(command, code, stdout, stderr, output_path):
    """What is wrong with one command's outcome, or None."""
    if code is None:
        return "hang"
    text = stderr.decode("utf-8", "replace")
    if code < 0 or code > 3 or BACKTRACE.search(text):
        return f"crash (exit {code})"
    lines = [line for line in text.split("\n") if line]
    # An error is one line; a copy saved from a damaged original may say how it was written, what a signature
    # lost and which pages the original could not give whole.
    if len(lines) > (3 if code == 0 else 2 if command in ("bookmarks", "bookmarks outline") else 1):
        return f"{len(lines)}-line {'warning' if code == 0 else 'error'}"
    if CONTROL.search(text):
        return "control characters on stderr"
    if code == 0 and command in ("annotations", "bookmarks", "bookmarks outline"):
        if CONTROL.search(stdout.decode("utf-8", "replace")):
            return "raw control characters in JSON"
        try:
            json.loads(stdout)
        except ValueError:
            return "output is not JSON"
    if code == 0 and command.startswith("summary "):
        text = stdout.decode("utf-8", "replace")
        if CONTROL.search(text):
            return "raw control characters in the comment summary"
        if command == "summary html" and re.search(r"<(script|img|iframe|object|embed|svg)", text, re.IGNORECASE):
            return "an element of the document's in the HTML summary"
        if command == "summary markdown" and "<" in text:
            return "markup of the document's in the Markdown summary"
        if command == "summary csv":
            # The default field limit (131,072) stays: Redline cuts a field to a spreadsheet cell (32,767).
            try:
                rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")))
            except csv.Error as error:
                return f"CSV Python cannot read ({error})"
            if not rows or rows[0][:2] != ["thread", "id"] or any(len(row) != 9 for row in rows):
                return "CSV rows that are not nine fields"
            if any(len(field.encode("utf-16-le")) // 2 > 32767 for row in rows for field in row):
                return "a CSV field longer than a spreadsheet cell holds"
    if code == 0 and command == "xfdf export":
        if CONTROL.search(stdout.decode("utf-8", "replace")):
            return "raw control characters in XFDF"
        try:
            ElementTree.fromstring(stdout)
        except ElementTree.ParseError as error:
            return f"XFDF that is not XML ({error})"
    if code == 0 and command in ("apply", "flatten", "xfdf import", "reply", "bookmarks add", "bookmarks add outline"):
        # Opening is the test: a stream the damaged input already had broken is copied as it was.
        check = subprocess.run(["qpdf", "--show-npages", output_path], capture_output=True)
        if check.returncode not in (0, 3) or not check.stdout.strip().isdigit():
            return f"{command} wrote a file qpdf cannot open"
    if code != 0 and not lines:
        return f"exit {code} without a message"
    return None


def editor_problem(args, document, folder, environment, seconds=20):
    """The editor in tmux on the document: it must show its status line (or refuse in one line) and quit on q."""
    socket = "redline-fuzz-%d-%d" % (os.getpid(), threading.get_ident())
    variables = " ".join(f"{key}='{environment[key]}'" for key in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"))
    script = (f"env TERM=xterm-256color {variables} '{args.binary}' '{document}' 2>'{folder}/editor.err'; "
              f"echo REDLINE-EXIT=$?; sleep 30")
    subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", script],
                   capture_output=True)

    def screen():
        return subprocess.run(["tmux", "-L", socket, "capture-pane", "-p"], capture_output=True, text=True).stdout

    def wait(predicate):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = screen()
            if predicate(shown):
                return shown
            time.sleep(0.1)
        return None

    try:
        shown = wait(lambda text: "REDLINE-EXIT=" in text or re.search(r"page \d+/\d+", text))
        if shown is None:
            return "the editor showed no frame"
        if "REDLINE-EXIT=" not in shown:
            subprocess.run(["tmux", "-L", socket, "send-keys", "q"], capture_output=True)
            shown = wait(lambda text: "REDLINE-EXIT=" in text)
            if shown is None:
                return "the editor did not quit on q"
        code = int(re.search(r"REDLINE-EXIT=(\d+)", shown).group(1))
        if code > 3:
            return f"the editor exited {code}"
        return None
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


def one_case(args, index, work, environment, markup):
    case = hostile_pdfs.make_case(args.seed, index, os.path.join(ROOT, "Tests", "Fixtures"))
    folder = os.path.join(work, str(index))
    os.makedirs(folder, exist_ok=True)
    document = os.path.join(folder, "case.pdf")
    with open(document, "wb") as handle:
        handle.write(case.data)
    output = os.path.join(folder, "out.pdf")
    xfdf_case = hostile_xfdf.make_case(args.seed, index)
    xfdf = os.path.join(folder, "case.xfdf")
    with open(xfdf, "wb") as handle:
        handle.write(xfdf_case.data)
    target = document if index % 2 else os.path.join(ROOT, "Tests", "Fixtures", hostile_xfdf.DOCUMENT)
    hostile_markup_bytes, markup_mutations = hostile_markup.make_case(args.seed, index)
    hostile_markup_file = os.path.join(folder, "markup.json")
    with open(hostile_markup_file, "wb") as handle:
        handle.write(hostile_markup_bytes)
    sample = os.path.join(ROOT, "Resources", "sample.pdf")
    commands = {
        "annotations": [args.binary, "annotations", document, "--json"],
        "bookmarks": [args.binary, "bookmarks", document, "--json"],
        "apply": [args.binary, "apply", document, "--markup", markup, "--output", output],
        "apply annotations": [args.binary, "apply", document, "--markup", markup, "--annotations", "--output", output],
        "apply hostile markup": [args.binary, "apply", sample, "--markup", hostile_markup_file, "--output", output]
                                + (["--annotations"] if index % 2 else []),
        "flatten": [args.binary, "flatten", document, "--output", output],
        "xfdf export": [args.binary, "xfdf", "export", document],
        "xfdf import": [args.binary, "xfdf", "import", target, xfdf, "--output", output],
    }
    for summary in ("markdown", "csv", "html"):
        commands["summary " + summary] = [args.binary, "annotations", document, "--format", summary]
    commands["search"] = [args.binary, "search", document, "the"]
    commands["bookmarks add"] = [args.binary, "bookmarks", "add", document, "--page", "1", "--name", "Fuzz\u001b[2J", "--output", output]
    commands["bookmarks outline"] = [args.binary, "bookmarks", "list", document, "--outline", "--json"]
    commands["bookmarks add outline"] = [args.binary, "bookmarks", "add", document, "--page", "1", "--outline",
                                         "--name", "Fuzz\u009b2J", "--output", output]
    problems, slowest = [], (0.0, "")
    for name, arguments in list(commands.items()):
        if name == "reply":
            continue
        code, stdout, stderr, seconds = run(arguments, args.timeout, args.memory_mb, environment)
        if seconds > slowest[0]:
            slowest = (seconds, name)
        problem = judge(name, code, stdout, stderr, output)
        if problem:
            problems.append((name, problem, stderr.decode("utf-8", "replace")[:400]))
        if name == "annotations" and code == 0 and "reply" not in commands:
            # A reply to the first annotation listed: the writer on the hostile file's threads.
            try:
                listed = json.loads(stdout)
            except ValueError:
                listed = []
            # An argument cannot carry NUL, nor a megabyte: such an id is one no shell could pass either.
            first = next((item["id"] for item in listed if isinstance(item, dict) and isinstance(item.get("id"), str)
                          and item["id"] and "\x00" not in item["id"] and len(item["id"]) < 4096), None)
            if first:
                commands["reply"] = [args.binary, "reply", document, "--to", first, "--text", "Fuzz \u009b2J reply",
                                     "--output", output]
    if "reply" in commands:
        code, stdout, stderr, _ = run(commands["reply"], args.timeout, args.memory_mb, environment)
        problem = judge("reply", code, stdout, stderr, output)
        if problem:
            problems.append(("reply", problem, stderr.decode("utf-8", "replace")[:400]))
    if index < len(hostile_pdfs.Builder.EVERY_CLASS) or index % 50 == 0:
        problem = editor_problem(args, document, folder, environment)
        if problem:
            problems.append(("editor", problem, ""))
    if problems and args.failures:
        os.makedirs(args.failures, exist_ok=True)
        shutil.copy(document, os.path.join(args.failures, f"case-{case.name}.pdf"))
        shutil.copy(xfdf, os.path.join(args.failures, f"case-{case.name}.xfdf"))
        shutil.copy(hostile_markup_file, os.path.join(args.failures, f"case-{case.name}-markup.json"))
    shutil.rmtree(folder, ignore_errors=True)
    return case, problems, slowest, (xfdf_case.mutations, markup_mutations)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=0, help="run until this much time has passed instead")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--memory-mb", type=int, default=4096)
    parser.add_argument("--failures", default="")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="redline-fuzz-")
    environment = dict(os.environ, HOME=work, XDG_CONFIG_HOME=work + "/config", XDG_STATE_HOME=work + "/state",
                       XDG_DATA_HOME=work + "/data", LC_ALL="C.UTF-8")
    markup = os.path.join(work, "markup.json")
    with open(markup, "w") as handle:
        json.dump(MARKUP, handle)

    deadline = time.monotonic() + args.seconds if args.seconds else None
    lock = threading.Lock()
    totals = {"cases": 0, "failed": 0, "crash": 0, "hang": 0, "other": 0}
    slowest = (0.0, "")
    started = time.monotonic()

    next_index = 0

    def take_index():
        """The next case to run, or None when the run is over. Each worker takes one at a time: queueing
        every index up front (Executor.map) would fill memory with futures for a whole --seconds run."""
        nonlocal next_index
        with lock:
            if (deadline and time.monotonic() >= deadline) or (not deadline and next_index >= args.cases):
                return None
            next_index += 1
            return next_index - 1

    def work_on(index):
        nonlocal slowest
        case, problems, case_slowest, (xfdf_mutations, markup_mutations) = one_case(args, index, work, environment, markup)
        with lock:
            totals["cases"] += 1
            if case_slowest[0] > slowest[0]:
                slowest = (case_slowest[0], f"case {case.name} ({case_slowest[1]}: {', '.join(case.mutations)})")
            if problems:
                totals["failed"] += 1
                for command, problem, stderr in problems:
                    kind = "crash" if problem.startswith("crash") else "hang" if problem == "hang" else "other"
                    totals[kind] += 1
                    said = case.mutations + (["xfdf: " + ", ".join(xfdf_mutations)] if command == "xfdf import" else [])
                    said += ["markup: " + ", ".join(markup_mutations)] if command == "apply hostile markup" else []
                    print(f"FAIL case {case.name} [{', '.join(said)}] {command}: {problem}\n    {stderr.strip()[:300]}",
                          flush=True)

    def worker():
        while (index := take_index()) is not None:
            try:
                work_on(index)
            except Exception:  # a broken generator or driver fails the run, loudly, instead of ending a thread
                traceback.print_exc()
                with lock:
                    totals["failed"] += 1
                    totals["other"] += 1

    threads = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz: seed {args.seed}: {totals['cases']} cases in {time.monotonic() - started:.0f} s, "
          f"{totals['failed']} failing: {totals['crash']} crashes, {totals['hang']} hangs, {totals['other']} other; "
          f"slowest {slowest[0]:.2f} s: {slowest[1]}")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
