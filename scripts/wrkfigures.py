"""What the benchmark scripts read from wrk's output (`--latency`): each
run's requests per second and p99 in milliseconds, and one line of them
with their medians."""
import re
import statistics

_UNITS = {"us": 0.001, "ms": 1, "s": 1000}


def rates(text):
    """Every run's `Requests/sec` in `text`, in order."""
    return [float(v) for v in re.findall(r"Requests/sec:\s+([\d.]+)", text)]


def p99s(text):
    """Every run's 99th percentile in `text`, in milliseconds, in order."""
    return [float(v) * _UNITS[u] for v, u in re.findall(r"99%\s+([\d.]+)(us|ms|s)\b", text)]


def line(label, r, p):
    """`label: requests/s [...] median N; p99 [...] ms median M ms`."""
    return (f"{label}: requests/s {[round(x) for x in r]} median {statistics.median(r):.0f}; "
            f"p99 {[round(x, 2) for x in p]} ms median {statistics.median(p):.2f} ms")


def ratio(r0, p0, r1, p1):
    """`ratio of requests/s R; p99 +D ms`, the second set against the first."""
    return (f"ratio of requests/s {statistics.median(r1) / statistics.median(r0):.3f}; "
            f"p99 {statistics.median(p1) - statistics.median(p0):+.2f} ms")
