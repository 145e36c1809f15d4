"""Instruction-level profile of the numba-compiled solvers under Linux ``perf``.

    python benchmarks/perf_profile.py bauernstoss            # exact points of 300 full deals
    python benchmarks/perf_profile.py pinochle3 --n 20       # 20 endings of 12 tricks
    python benchmarks/perf_profile.py bauernstoss --top 30   # the 30 hottest instructions
    python benchmarks/perf_profile.py betting                # any other bench_<area>.py: its measure() as is

The area's fixed workload runs warm (compiled first, unsampled) while ``perf record`` samples this
process in user space. numba's JIT code has no symbols for perf, so the script writes
/tmp/perf-<PID>.map while perf reads the samples ("START SIZE name" per compiled function, from the
ELF symbol table of each library's object code and the address the JIT linked it at). It prints (1) the
share of samples per function (numba's mangled names read as module.function, other code by its symbol
or shared object)
and (2) the hottest instructions: share, function+offset and the instruction as objdump disassembles
the object code (unrelocated: addresses of constants read $0x0). Source lines would need ``debug=True``
builds. Exits 2 with one line if perf is missing or not permitted.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from numba.core.codegen import CPUCodeLibrary  # noqa: E402
from numba.core.dispatcher import Dispatcher  # noqa: E402
from numba.core.runtime import rtsys  # noqa: E402

AREAS = sorted(path.stem[len("bench_"):] for path in (ROOT / "benchmarks").glob("bench_*.py"))
FREQUENCY = 2000
"""Samples per second."""
MANGLED = re.compile(r"_ZN((?:\d+[A-Za-z0-9_$]+?)+?)(?:B\d|E)")
ESCAPED = re.compile(r"_([0-9a-f]{2})")
TARGET = re.compile(r"<[^<>]*(\+0x[0-9a-f]+)>")
"""objdump's jump target <mangled name+0x12>, shown as <+0x12> (the offset within the function)."""


@dataclass
class Function:
    start: int
    size: int
    name: str
    obj: bytes
    section: str
    value: int


OBJECTS = {}
"""{id(LLVM module): its ELF object code}, as numba hands it to or takes it from LLVM's JIT."""


def _keep_objects() -> None:
    """Record each library's object code: numba drops the copy it loads from its cache once linked.
    Must run before the first compilation (numba registers the hooks with its JIT then)."""
    compiled, cached = CPUCodeLibrary._object_compiled_hook.__func__, CPUCodeLibrary._object_getbuffer_hook.__func__

    def on_compiled(cls, module, buffer):
        OBJECTS[id(module)] = bytes(buffer)
        compiled(cls, module, buffer)

    def on_load(cls, module):
        buffer = cached(cls, module)
        if buffer:
            OBJECTS[id(module)] = bytes(buffer)
        return buffer

    CPUCodeLibrary._object_compiled_hook = classmethod(on_compiled)
    CPUCodeLibrary._object_getbuffer_hook = classmethod(on_load)


def bauernstoss_workload(n: int):
    from simcore.games import bauernstoss_solve as sv
    from simcore.games.bauernstoss_jobs import deal_hands
    hands = deal_hands(1, 0, n)
    sv.solve_points(hands[:2], 0, 1, 1)  # compile or load from the cache
    return lambda: sv.solve_points(hands, 0, 1, 1)


def pinochle3_workload(n: int):
    from bench_pinochle3 import positions
    from simcore.games import pinochle3_solve as solver
    hands, trumps = positions(n, 12)
    table = solver.table_for(hands)
    solver.solve(hands[:1], trumps[:1], 0, 0, table=table)  # compile or load from the cache
    return lambda: solver.solve(hands, trumps, 0, 0, table=table)


WORKLOADS = {"bauernstoss": (bauernstoss_workload, 300), "pinochle3": (pinochle3_workload, 20)}
"""Areas with a fixed warm workload and its default size; any other area runs its bench module's measure()."""


def workload_of(area: str, n: int | None) -> tuple[object, str]:
    """(the function to sample, what it does)."""
    if area in WORKLOADS:
        make, default_n = WORKLOADS[area]
        return make(n or default_n), f"{n or default_n} solves"
    return importlib.import_module(f"bench_{area}").measure, "bench_" + area + ".measure(), compilation included"


def readable(symbol: str) -> str:
    """numba's Itanium-mangled name as module.function (``_ZN6simcore5games...`` -> simcore.games...)."""
    found = MANGLED.match(symbol)
    if not found:
        return symbol
    parts, text = [], found.group(1)
    while text:
        digits = re.match(r"\d+", text).group()
        parts.append(text[len(digits):len(digits) + int(digits)])
        text = text[len(digits) + int(digits):]
    return ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), ".".join(parts))


def elf_functions(obj: bytes) -> list:
    """(name, section name, value, size, global) of each defined function of a 64-bit ELF object."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    names_at = sections[shstrndx][4]

    def text(base: int, at: int) -> str:
        return obj[base + at:obj.index(b"\0", base + at)].decode()

    section_names = {i: text(names_at, s[0]) for i, s in enumerate(sections)}
    out = []
    for sh in (s for s in sections if s[1] == 2):  # SHT_SYMTAB
        strings = sections[sh[6]][4]
        for at in range(sh[4], sh[4] + sh[5], 24):
            name, info, _, shndx, value, size = struct.unpack_from("<IBBHQQ", obj, at)
            if info & 0xF == 2 and 0 < shndx < shnum and size:  # STT_FUNC, defined
                out.append((text(strings, name), section_names[shndx], value, size, info >> 4 != 0))
    return out


def object_code(library) -> bytes:
    """The library's ELF object as linked, or emitted again (the same code) if the JIT did not hand it over."""
    kept = OBJECTS.get(id(library._final_module))
    return kept if kept else bytes(library._codegen._tm.emit_object(library._final_module))


def compiled_functions() -> list[Function]:
    """Every function of every compiled overload in this process, with its address."""
    libraries = {id(rtsys.library): rtsys.library}  # NRT_incref, NRT_decref, ...
    for obj in gc.get_objects():
        if isinstance(obj, Dispatcher):
            for result in obj.overloads.values():
                libraries[id(result.library)] = result.library
    functions = []
    for library in libraries.values():
        obj = object_code(library)
        symbols = elf_functions(obj)
        bases = {}
        for name, section, value, _, is_global in symbols:
            if is_global and section not in bases:
                address = library.get_pointer_to_function(name)
                if address:
                    bases[section] = address - value
        functions += [Function(bases[section] + value, size, readable(name), obj, section, value)
                      for name, section, value, size, _ in symbols if section in bases]
    return sorted(functions, key=lambda f: f.start)


def write_map(functions: list[Function]) -> Path:
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    path.write_text("".join(f"{f.start:x} {f.size:x} {f.name}\n" for f in functions))
    return path


def fail(message: str) -> None:
    print(f"perf_profile: {message}", file=sys.stderr)
    sys.exit(2)


def check_perf() -> None:
    """Exit 2 with one line if perf cannot sample this user's processes."""
    if shutil.which("perf") is None:
        fail("perf not found; install it (e.g. apt-get install linux-perf, or linux-tools-$(uname -r))")
    probe = subprocess.run(["perf", "stat", "-e", "cpu-clock:u", "--", "true"], capture_output=True, text=True)
    if probe.returncode:
        fail(f"perf may not sample here ({(probe.stderr.strip() or '?').splitlines()[-1][:80]}); "
             "try `sudo sysctl kernel.perf_event_paranoid=1`")


def record(workload, data: Path) -> float:
    """Run ``workload`` under ``perf record`` of this process; seconds taken."""
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock:u", "-F", str(FREQUENCY), "-o", str(data),
                             "-p", str(os.getpid())], stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # perf attaches
    if perf.poll() is not None:
        fail(f"perf record failed ({perf.stderr.read().strip()[:80]}); try `sudo sysctl kernel.perf_event_paranoid=1`")
    start = time.perf_counter()
    workload()
    seconds = time.perf_counter() - start
    perf.send_signal(signal.SIGINT)
    perf.wait()
    return seconds


def samples(data: Path) -> list[tuple[int, str]]:
    """(ip, perf's symbol or shared object) of each sample."""
    lines = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,sym,dso"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    out = []
    for line in lines:
        fields = line.split()
        if fields:
            dso = Path(fields[-1].strip("()")).name
            dso = "[JIT code outside the map]" if dso.startswith("perf-") else dso
            out.append((int(fields[0], 16), dso if len(fields) < 3 or fields[1] == "[unknown]" else fields[1]))
    return out


def disassembly(function: Function, cache: dict) -> dict:
    """{(section, offset): instruction} of the object holding ``function`` (objdump, cached per object)."""
    key = id(function.obj)
    if key not in cache:
        with tempfile.NamedTemporaryFile(suffix=".o") as file:
            file.write(function.obj)
            file.flush()
            text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", file.name],
                                  capture_output=True, text=True).stdout
        lines, section = {}, ""
        for line in text.splitlines():
            if line.startswith("Disassembly of section "):
                section = line[len("Disassembly of section "):-1]
            elif re.match(r"\s+[0-9a-f]+:\t", line):
                at, instruction = line.split(":\t", 1)
                lines[(section, int(at, 16))] = TARGET.sub(r"<\1>", " ".join(instruction.split()))
        cache[key] = lines
    return cache[key]


def locate(ip: int, functions: list[Function], starts: list[int]) -> Function | None:
    i = int(np.searchsorted(starts, ip, side="right")) - 1
    return functions[i] if i >= 0 and ip < functions[i].start + functions[i].size else None


def report(hits: list[tuple[int, str]], functions: list[Function], top: int) -> None:
    starts = [f.start for f in functions]
    by_function, by_instruction = Counter(), Counter()
    where = {}
    for ip, other in hits:
        f = locate(ip, functions, starts)
        by_function[f.name if f else other] += 1
        if f:
            by_instruction[(f.name, ip - f.start)] += 1
            where[(f.name, ip - f.start)] = f
    total = max(len(hits), 1)
    print(f"\n{len(hits)} samples; share per function:")
    for name, count in by_function.most_common(top):
        print(f"{100 * count / total:6.1f}%  {name}")
    print(f"\ntop {top} instructions:")
    cache = {}
    for (name, offset), count in by_instruction.most_common(top):
        f = where[(name, offset)]
        instruction = disassembly(f, cache).get((f.section, f.value + offset), "?")
        print(f"{100 * count / total:6.1f}%  {name.rsplit('.', 1)[-1]}+0x{offset:x}  {instruction}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("area", choices=AREAS)
    parser.add_argument("--n", type=int, help="deals or positions (bauernstoss 300, pinochle3 20)")
    parser.add_argument("--top", type=int, default=20, help="rows of each table")
    args = parser.parse_args()
    if args.n is not None and args.n < 1 or args.top < 1:
        parser.error("--n and --top take a positive number")
    check_perf()
    _keep_objects()
    workload, what = workload_of(args.area, args.n)
    with tempfile.TemporaryDirectory() as tmp:
        seconds = record(workload, Path(tmp) / "perf.data")
        functions = compiled_functions()
        map_path = write_map(functions)
        try:
            hits = samples(Path(tmp) / "perf.data")
        finally:
            map_path.unlink()
    print(f"{args.area}: {what} in {seconds:.2f} s")
    report(hits, functions, args.top)


if __name__ == "__main__":
    main()
