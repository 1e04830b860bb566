#!/usr/bin/env python3
"""Measures every command of Redline on crowded documents (`make bench-scale`): wall time and peak resident memory
of each whole process, beside qpdf and pdfinfo on the same file. Figures, not assertions: the aim (issue 29) is
every command on 100,000 annotations within 5 s and 600 MiB.

usage: scale_bench.py --binary PATH [--count 100000] [--folder DIR] [--timeout 300]"""
import argparse
import os
import shutil
import subprocess
import sys
import time

TOOLS = os.path.dirname(os.path.abspath(__file__))


def measure(arguments, timeout):
    """Runs one process; returns (seconds, peak MiB, exit status), status None when it ran past the timeout."""
    started = time.monotonic()
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(arguments, stdout=sink, stderr=sink)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                return time.monotonic() - started, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)
            if time.monotonic() > deadline:
                process.kill()
                _, _, usage = os.wait4(process.pid, 0)
                return time.monotonic() - started, usage.ru_maxrss / 1024, None
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--folder", default=".build-scale")
    parser.add_argument("--timeout", type=float, default=300)
    options = parser.parse_args()
    os.makedirs(options.folder, exist_ok=True)
    folder = options.folder
    redline = os.path.abspath(options.binary)

    def made(shape, count):
        path = os.path.join(folder, f"{shape}-{count}.pdf")
        if not os.path.exists(path):
            subprocess.run([sys.executable, os.path.join(TOOLS, "make_crowded_document.py"), path, shape, str(count)],
                           check=True)
        return path

    mixed = made("mixed", options.count)
    replies = made("replies", options.count)
    ink = made("ink", options.count * 10)
    markup = os.path.join(folder, "markup.json")
    with open(markup, "w") as file:
        file.write('{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "Scale"}]}')
    out = lambda name: os.path.join(folder, name)
    xfdf = out("export.xfdf")
    subprocess.run([redline, "xfdf", "export", mixed, "--output", xfdf], check=True, stdout=subprocess.DEVNULL)

    # The same page without its annotations: importing the export there makes every annotation anew.
    bare = out("bare.pdf")
    if not os.path.exists(bare):
        import pikepdf
        with pikepdf.open(mixed) as pdf:
            for page in pdf.pages:
                if "/Annots" in page.obj:
                    del page.obj["/Annots"]
            pdf.save(bare)

    rows = []
    for label, document in ((f"{options.count:,} mixed annotations", mixed),
                            (f"1 note and {options.count:,} replies", replies),
                            (f"1 ink of {options.count * 10:,} points", ink)):
        size = os.path.getsize(document) / 1024 / 1024
        print(f"\n{label} ({size:.1f} MB)")
        print(f"{'command':<24}{'seconds':>9}{'peak MiB':>10}  status")
        target = "crowd-1" if document != ink else "crowd-0"
        commands = [
            ("annotations", [redline, "annotations", document]),
            ("annotations --json", [redline, "annotations", "--json", document]),
            ("xfdf export", [redline, "xfdf", "export", document, "--output", out("e.xfdf")]),
            ("flatten", [redline, "flatten", document, "--output", out("f.pdf")]),
            ("apply", [redline, "apply", document, "--markup", markup, "--output", out("a.pdf")]),
            ("apply --annotations", [redline, "apply", document, "--markup", markup, "--annotations", "--output", out("a.pdf")]),
            ("reply", [redline, "reply", document, "--to", target, "--text", "ok", "--output", out("r.pdf")]),
            ("review", [redline, "review", document, "--to", target, "--state", "accepted", "--output", out("v.pdf")]),
            ("bookmarks list", [redline, "bookmarks", "list", document]),
            ("search", [redline, "search", document, "crowded"]),
        ]
        if document == mixed:
            commands.insert(3, ("xfdf import (own export)", [redline, "xfdf", "import", document, xfdf, "--output", out("i.pdf")]))
            commands.insert(4, ("xfdf import (bare page)", [redline, "xfdf", "import", bare, xfdf, "--output", out("i.pdf")]))
        for name, tool in (("qpdf --check", "qpdf"), ("qpdf (copy)", "qpdf"), ("pdfinfo", "pdfinfo")):
            if shutil.which(tool):
                arguments = {"qpdf --check": ["qpdf", "--check", document], "qpdf (copy)": ["qpdf", document, out("q.pdf")],
                             "pdfinfo": ["pdfinfo", document]}[name]
                commands.append(("  " + name, arguments))
        for name, arguments in commands:
            seconds, peak, status = measure(arguments, options.timeout)
            shown = "timed out" if status is None else f"exit {status}"
            print(f"{name:<24}{seconds:>9.2f}{peak:>10.0f}  {shown}", flush=True)


if __name__ == "__main__":
    main()
