"""A network ESC/POS printer for the browser checks: a TCP server on loopback
that keeps each connection's bytes and answers the status queries (DLE EOT n)
as a printer does; `paper_out` makes it answer no paper. Stopped with stop()."""
import socket
import threading


class FakePrinter:
    def __init__(self, port=0):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.paper_out = False
        self.jobs = []
        self.lock = threading.Lock()
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        data = bytearray()
        with conn:
            while True:
                try:
                    chunk = conn.recv(4096)
                except OSError:
                    break
                if not chunk:
                    break
                start = len(data)
                data += chunk
                i = max(0, start - 2)
                while i + 2 < len(data):
                    if data[i] == 0x10 and data[i + 1] == 0x04:
                        n = data[i + 2]
                        if n == 1:
                            conn.sendall(bytes([0x1E if self.paper_out else 0x16]))
                        elif n == 4:
                            conn.sendall(bytes([0x72 if self.paper_out else 0x12]))
                        i += 3
                    else:
                        i += 1
        with self.lock:
            self.jobs.append(bytes(data))

    def tickets(self):
        """The text of each ticket received (bytes between ESC @ and the cut, printable ASCII and CP858 letters kept)."""
        out = []
        with self.lock:
            jobs = list(self.jobs)
        for data in jobs:
            start, end = data.find(b"\x1b@"), data.find(b"\x1dV\x00")
            if start < 0 or end < 0:
                continue
            out.append(data[start:end].decode("cp858", errors="replace"))
        return out

    def stop(self):
        self.running = False
        try:
            self.sock.close()
        except OSError:
            pass


if __name__ == "__main__":
    # fakeprinter.py N [SECONDS]: N printers that keep no bytes (a benchmark's), their ports on one line; each
    # ticket takes SECONDS (default 0.25: 10 cm of paper at 250 mm/s, before it closes); on SIGTERM, the tickets each got.
    import signal
    import sys
    import time

    class Counting(FakePrinter):
        def __init__(self):
            self.count = 0
            super().__init__()

        def _serve(self, conn):
            with conn:
                tail = b""
                while True:
                    try:
                        chunk = conn.recv(65536)
                    except OSError:
                        break
                    if not chunk:
                        break
                    data = tail + chunk
                    i = 0
                    while True:
                        i = data.find(b"\x10\x04", i)
                        if i < 0 or i + 2 >= len(data):
                            break
                        conn.sendall(b"\x16" if data[i + 2] == 1 else b"\x12")
                        i += 3
                    if b"\x1dV\x00" in data:
                        with self.lock:
                            self.count += 1
                        time.sleep(PRINT_SECONDS)
                    tail = data[-2:]

    PRINT_SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 0.25
    printers = [Counting() for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1)]
    print(" ".join(str(p.port) for p in printers), flush=True)

    def done(*_):
        print("fake printers: " + ", ".join(f"{p.count} tickets" for p in printers), flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, done)
    while True:
        time.sleep(1)
