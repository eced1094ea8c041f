"""The host's side of the guest's command agent (guest/agent.py): sends one command, copies
its output to this process's stdout and stderr as it arrives, and exits with its status.
Exit 255 with a sentence on stderr if the agent cannot be reached or the guest goes away."""
import json
import socket
import struct
import sys

#: Seconds past a command's own timeout that the agent may stay silent before the guest counts as stuck.
SILENCE_MARGIN_SECONDS = 120.0


def main() -> int:
    port, timeout, command = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    except OSError as error:
        print(f"vm.sh: cannot reach the guest's agent on 127.0.0.1:{port} ({error}); is the guest running (vm.sh start)?",
              file=sys.stderr)
        return 255
    # The agent ends the command at its timeout and sends its status, so a silence much longer than
    # the timeout means the guest or its agent is stuck: give up with a sentence rather than wait
    # forever (a loaded host slows the emulated guest, hence the generous margin). A timeout of 0
    # asks the agent for none, and then no silence is too long.
    silence = timeout + SILENCE_MARGIN_SECONDS if timeout > 0 else None
    connection.settimeout(silence)
    connection.sendall(json.dumps({"command": command, "timeout": timeout}).encode() + b"\n")
    stream = connection.makefile("rb")
    try:
        return relay(stream)
    except ConnectionResetError:
        print("vm.sh: the guest's agent reset the connection before the command's status arrived", file=sys.stderr)
        return 255
    except TimeoutError:
        print(f"vm.sh: the guest's agent sent nothing for {silence:g} s, past the command's {timeout:g} s timeout "
              "(is the guest stuck?)", file=sys.stderr)
        return 255


def relay(stream) -> int:
    """Copies the agent's frames to stdout and stderr until the exit status frame."""
    outputs = {b"o": sys.stdout.buffer, b"e": sys.stderr.buffer}
    while True:
        header = stream.read(5)
        if len(header) < 5:
            print("vm.sh: the guest closed the connection before the command finished (did the guest stop?)",
                  file=sys.stderr)
            return 255
        kind, length = header[:1], struct.unpack(">I", header[1:])[0]
        data = stream.read(length)
        if kind == b"x":
            status = int(data)
            return status if status >= 0 else 128 - status
        outputs[kind].write(data)
        outputs[kind].flush()


if __name__ == "__main__":
    sys.exit(main())
