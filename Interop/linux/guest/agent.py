"""The guest's command agent: runs one shell command per TCP connection and streams back
its output and exit status, so the host (Interop/linux/vm.sh run) can script any Linux check.

Protocol: the client sends one JSON line {"command": "...", "timeout": seconds}; the agent
answers with frames of a kind octet, a big-endian u32 length and that many octets: b"o"
standard output, b"e" standard error, and last b"x" with the exit status as text ("124" on
timeout, "-N" when killed by signal N). A client that goes away kills the command.
"""
import argparse
import json
import os
import signal
import socket
import struct
import subprocess
import threading


#: Seconds a timed-out command's processes get to die after SIGKILL before the agent reports without them.
KILL_GRACE_SECONDS = 10


def processes_of(session: int) -> str:
    """What a command's processes were doing (state and kernel wait channel), for a timeout's report."""
    try:
        listing = subprocess.run(["ps", "-s", str(session), "-o", "pid,stat,wchan:32,etimes,args"],
                                 capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError) as error:
        listing = f"(ps failed: {error})\n"
    return listing


def serve(connection: socket.socket) -> None:
    lock = threading.Lock()

    def send(kind: bytes, data: bytes) -> None:
        with lock:
            try:
                connection.sendall(kind + struct.pack(">I", len(data)) + data)
            except OSError:
                pass

    try:
        line = connection.makefile("rb").readline()
        request = json.loads(line)
    except (OSError, ValueError) as error:
        send(b"e", f"agent: bad request: {error}\n".encode())
        send(b"x", b"2")
        connection.close()
        return
    env = dict(os.environ, PATH="/opt/bleak/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME="/root")
    process = subprocess.Popen(["/bin/bash", "-c", request["command"]], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, env=env)

    def pump(stream, kind: bytes) -> None:
        for chunk in iter(lambda: os.read(stream.fileno(), 65536), b""):
            send(kind, chunk)

    pumps = [threading.Thread(target=pump, args=(process.stdout, b"o")),
             threading.Thread(target=pump, args=(process.stderr, b"e"))]
    for thread in pumps:
        thread.start()

    def kill() -> None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def watch_client() -> None:
        # The client sends nothing more: end of stream means it went away.
        try:
            connection.recv(1)
        except OSError:
            pass
        if process.poll() is None:
            kill()

    watcher = threading.Thread(target=watch_client, daemon=True)
    watcher.start()
    timed_out = False
    stuck = unkillable = ""
    try:
        process.wait(timeout=request.get("timeout") or None)
    except subprocess.TimeoutExpired:
        timed_out = True
        stuck = processes_of(process.pid)
        kill()
        try:
            process.wait(timeout=KILL_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            # A process in uninterruptible sleep (a kernel call that does not return) outlives
            # SIGKILL: report rather than wait with it, so the host hears the status.
            unkillable = f"agent: the command's processes outlived SIGKILL for {KILL_GRACE_SECONDS} s\n"
    for thread in pumps:
        thread.join(timeout=5)
    if timed_out:
        send(b"e", (f"agent: the command did not finish within {request['timeout']} s and was killed; "
                    f"its processes then:\n{stuck}{unkillable}").encode())
        status = 124
    else:
        status = process.returncode
    send(b"x", str(status).encode())
    try:
        connection.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    # Close only once the client has read everything and closed its side: closing first can
    # make QEMU's user-mode network reset the host's connection with output still unread.
    watcher.join(timeout=30)
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=7000)
    parser.add_argument("--ready", help="a file (the console) to write SWIFTBLE-GUEST-READY to once listening")
    arguments = parser.parse_args()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", arguments.port))
    server.listen(16)
    print("listening", flush=True)
    if arguments.ready:
        with open("/proc/uptime") as uptime, open(arguments.ready, "w") as ready:
            ready.write(f"SWIFTBLE-GUEST-READY {uptime.read().split()[0]}\n")
    while True:
        connection, _ = server.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
