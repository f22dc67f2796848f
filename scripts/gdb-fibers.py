"""gdb commands for libjump's fibers (docs/design-io.md): the parked ones are on no thread, so `thread apply
all bt` does not show them.

    (gdb) source scripts/gdb-fibers.py
    (gdb) jump-fibers          # every fiber: address, state, stack
    (gdb) jump-fibers bt       # and the backtrace of each parked one

Needs libjump.so's debug info (build/lib/libjump.so has it; an installed copy finds libjump.so.<v>.debug) and a
live process (a core file has no registers to borrow). A parked fiber's registers are on its own stack where
the register switch (Sources/CFiber/switch.h) left them: the command points the current thread's registers
there for the backtrace and puts them back after.
"""

import gdb  # type: ignore

STATES = {0: "new", 1: "running", 2: "parked", 3: "finished"}


def _live_fibers():
    fiber = gdb.parse_and_eval("'fiber.c'::live_fibers")
    seen = 0
    while int(fiber) != 0 and seen < 100000:
        yield fiber
        fiber = fiber["next_live"]
        seen += 1


def _saved_registers(sp, arch):
    """The registers a parked fiber resumes with, read from its saved frame."""
    inferior = gdb.selected_inferior()
    words = 8 if "x86-64" in arch else 20
    raw = bytes(inferior.read_memory(sp, words * 8))
    value = [int.from_bytes(raw[i * 8:(i + 1) * 8], "little") for i in range(words)]
    if "x86-64" in arch:
        # mxcsr/fpucw, r12, r13, r14, r15, rbx, rbp, return address; the ret leaves sp 64 bytes up.
        return {"$rbx": value[5], "$rbp": value[6], "$r12": value[1], "$r13": value[2], "$r14": value[3],
                "$r15": value[4], "$rip": value[7], "$rsp": sp + 64}
    # aarch64: x19..x28, x29, x30, then d8..d15; the ret goes to x30 with sp 160 bytes up.
    registers = {"$x%d" % (19 + i): value[i] for i in range(10)}
    registers.update({"$x29": value[10], "$x30": value[11], "$pc": value[11], "$sp": sp + 160})
    return registers


class JumpFibers(gdb.Command):
    """List libjump's fibers; `jump-fibers bt` adds the backtrace of each parked one."""

    def __init__(self):
        super().__init__("jump-fibers", gdb.COMMAND_STACK)

    def invoke(self, argument, from_tty):
        arch = gdb.selected_frame().architecture().name()
        with_backtraces = argument.strip() == "bt"
        count = 0
        for fiber in _live_fibers():
            count += 1
            state = STATES.get(int(fiber["state"]), str(int(fiber["state"])))
            stack = int(fiber["stack"])
            size = int(fiber["stack_size"])
            print("fiber %#x  %-8s stack %#x-%#x" % (int(fiber), state, stack, stack + size))
            if with_backtraces and state == "parked":
                self._backtrace(int(fiber["sp"]), arch)
        print("%d fiber(s)" % count)

    @staticmethod
    def _backtrace(sp, arch):
        saved = _saved_registers(sp, arch)
        frame = gdb.selected_frame()
        gdb.execute("frame 0", to_string=True)
        original = {name: int(gdb.parse_and_eval(name)) for name in saved}
        try:
            for name, value in saved.items():
                gdb.execute("set %s = %d" % (name, value), to_string=True)
            print(gdb.execute("bt", to_string=True), end="")
        finally:
            for name, value in original.items():
                gdb.execute("set %s = %d" % (name, value), to_string=True)
            frame.select()


JumpFibers()
