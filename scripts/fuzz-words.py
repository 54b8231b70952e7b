#!/usr/bin/env python3
"""The words a harness's code compares its input with, harvested from the harness binary (in the manner of AFL++'s
autodictionary): every constant operand of an instrumented comparison (`__sanitizer_cov_trace_const_cmp1/2/4/8`,
what `-sanitize=fuzzer` emits for `x == constant`). A Swift string literal of up to 15 bytes is compared as two
machine words, so its first 8 bytes are such a constant; an integer is one. Printable words become dictionary entries
as text, integers as their decimal digits. Written after the committed dictionary, as one libFuzzer dictionary, which
libFuzzer and the JWS harnesses' structure-aware mutator (which reads -dict) both draw from.

A number compared as a 64-bit integer is written `int64_<n>` (the others `cmp_<n>`): an INTEGER read from a
receipt is compared so, a byte of an encoding is not, and the BER structure mutator draws INTEGER values from these.

A word compared next after a name in the same function (`name == "kid", value == "rcpt-1"`; `name == "quantity",
text == "4242"`) is likely that member's value: such a word is written as `value_of_<name>_<n>="<word>"`, an entry
libFuzzer reads like any other (it ignores entry names) and the structure-aware mutator puts at that member.

    scripts/fuzz-words.py BINARY COMMITTED_DICT OUTPUT
    scripts/fuzz-words.py --disassembly TEXT COMMITTED_DICT OUTPUT   (objdump's text, for tests)

x86-64 only (the operand is read from the instructions that load the first argument); elsewhere, or without
llvm-objdump/objdump, OUTPUT is the committed dictionary alone."""
import re
import shutil
import subprocess
import sys

CALL = re.compile(r"call\w*\s+.*<__sanitizer_cov_trace_const_cmp([1248])>")
IMMEDIATE = re.compile(r"\bmov\w*\s+\$(-?0x[0-9a-f]+|-?\d+),\s*%(\w+)")
MOVE = re.compile(r"\bmov\w*\s+%(\w+),\s*%(\w+)")
ZERO = re.compile(r"\bxor\w*\s+%(\w+),\s*%(\w+)")
FIRST_ARGUMENT = {"rdi", "edi", "di", "dil"}
LOOKBACK = 16


def family(register):
    """The 64-bit register a name is part of (edi → rdi, r15d → r15)."""
    register = register.rstrip("dwb") if re.fullmatch(r"r\d+[dwb]?", register) else register
    aliases = {"edi": "rdi", "di": "rdi", "dil": "rdi", "esi": "rsi", "eax": "rax", "ebx": "rbx", "ecx": "rcx",
               "edx": "rdx", "ebp": "rbp", "esp": "rsp"}
    return aliases.get(register, register)


def operands(disassembly):
    """(function, width in bytes, value) of each constant operand, in the order of the code."""
    lines = disassembly.splitlines()
    function = ""
    for index, line in enumerate(lines):
        if line.endswith(">:"):
            function = line
            continue
        call = CALL.search(line)
        if not call:
            continue
        wanted = "rdi"
        for previous in reversed(lines[max(0, index - LOOKBACK):index]):
            if ">:" in previous:
                break
            immediate = IMMEDIATE.search(previous)
            if immediate and family(immediate.group(2)) == wanted:
                yield function, int(call.group(1)), int(immediate.group(1), 0)
                break
            zero = ZERO.search(previous)
            if zero and family(zero.group(2)) == wanted:
                break
            move = MOVE.search(previous)
            if move and family(move.group(2)) == wanted:
                wanted = family(move.group(1))


def word(width, value):
    """The dictionary word of one operand, or None."""
    raw = (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    text = raw.rstrip(b"\0")
    if len(text) >= 2 and all(32 <= byte < 127 for byte in text):
        return text
    signed = value - (1 << (8 * width)) if value >= 1 << (8 * width - 1) else value
    # Digits and flags of no meaning to an input: one-digit numbers (the tables have them), and the tag bits of a
    # Swift string's second word (|value| beyond 2^60).
    if abs(signed) < 10 or abs(signed) >= 1 << 60:
        return None
    return str(signed).encode()


NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]+")


def words(found):
    """The distinct words, in order; (name, word) for each word compared next after a name in its function; and the
    numbers compared as 64-bit integers somewhere (an Int64 read from the input is compared so, a byte or a tag is
    not)."""
    seen, pairs, previous, wide = [], [], {}, set()
    for function, width, value in found:
        current = word(width, value)
        if current is None:
            continue
        if current not in seen:
            seen.append(current)
        if width == 8 and re.fullmatch(rb"-?\d+", current):
            wide.add(current)
        name = previous.get(function)
        if name is not None and current != name and (name, current) not in pairs:
            pairs.append((name, current))
        previous[function] = current if NAME.fullmatch(current) else None
    return seen, pairs, wide


def escaped(word):
    return "".join(chr(b) if 32 <= b < 127 and b not in (0x22, 0x5C) else "\\x%02X" % b for b in word)


def main():
    arguments = sys.argv[1:]
    disassembly = None
    if arguments[:1] == ["--disassembly"]:
        with open(arguments[1]) as source:
            disassembly = source.read()
        arguments = arguments[1:]
    if len(arguments) != 3:
        sys.exit("usage: scripts/fuzz-words.py [--disassembly] BINARY|TEXT COMMITTED_DICT|- OUTPUT")
    binary, committed, output = arguments
    text = open(committed).read() if committed != "-" else ""
    tool = shutil.which("llvm-objdump") or shutil.which("objdump")
    harvested, pairs, wide = [], [], set()
    if disassembly is not None:
        harvested, pairs, wide = words(operands(disassembly))
    elif tool:
        result = subprocess.run([tool, "-d", "--no-show-raw-insn", binary], capture_output=True, text=True)
        if result.returncode == 0:
            harvested, pairs, wide = words(operands(result.stdout))
    with open(output, "w") as out:
        out.write(text)
        out.write("# %d words the code compares with, harvested from %s by scripts/fuzz-words.py\n"
                  % (len(harvested), binary.rsplit("/", 1)[-1]))
        for number, found in enumerate(harvested):
            # A number compared as a 64-bit integer is named int64_N: the BER mutator draws INTEGER values from them.
            out.write('%s_%d="%s"\n' % ("int64" if found in wide else "cmp", number, escaped(found)))
        for number, (name, found) in enumerate(pairs):
            out.write('value_of_%s_%d="%s"\n' % (name.decode(), number, escaped(found)))


if __name__ == "__main__":
    main()
