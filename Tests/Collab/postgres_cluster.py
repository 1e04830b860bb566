"""A throwaway PostgreSQL cluster on loopback, for the collaboration tests: made in a fresh folder with Debian's
server binaries, trusting loopback connections, removed on stop.

Usage: postgres_cluster.py start FOLDER   (prints the postgres:// URL once the server accepts connections)
       postgres_cluster.py stop FOLDER
PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user the Debian package makes.
"""
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys


def binaries():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    if initdb:
        return os.path.dirname(initdb)
    sys.exit("no PostgreSQL server binaries: install Debian's postgresql package (make test does)")


def as_owner(command):
    if os.getuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--"] + command


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(folder):
    bin_folder = binaries()
    os.makedirs(folder, exist_ok=True)
    data = os.path.join(folder, "data")
    if os.getuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        os.chmod(folder, 0o700)
        # The server runs as `postgres`, which must reach the folder: say so rather than loosen folders above it.
        reach = subprocess.run(["runuser", "-u", "postgres", "--", "test", "-x", folder])
        if reach.returncode != 0:
            sys.exit(f"the postgres user cannot reach {folder}: choose a folder under /tmp")
    user = "postgres" if os.getuid() == 0 else pwd.getpwuid(os.getuid()).pw_name
    subprocess.run(as_owner([os.path.join(bin_folder, "initdb"), "-D", data, "-U", user, "--auth=trust",
                             "--encoding=UTF8", "--no-sync"]),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port = free_port()
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=300"
    subprocess.run(as_owner([os.path.join(bin_folder, "pg_ctl"), "-D", data, "-l", os.path.join(folder, "log"),
                             "-o", options, "-w", "-t", "120", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    return f"postgres://{user}@127.0.0.1:{port}/postgres?sslmode=disable"


def stop(folder):
    data = os.path.join(folder, "data")
    if os.path.isdir(data):
        subprocess.run(as_owner([os.path.join(binaries(), "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit(__doc__)
    if sys.argv[1] == "start":
        print(start(sys.argv[2]), flush=True)
    else:
        stop(sys.argv[2])
