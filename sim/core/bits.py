"""Bit counting for the engines' masks (Festival's board and card words, The Magnificent's
camp): in compiled code the CPU's population count instruction (LLVM's ``ctpop``), where a
loop over the set bits took a round per bit and a mispredicted branch at its end.
"""

from numba import types
from numba.extending import intrinsic, overload


def popcount(x) -> int:
    """The set bits of the int64 ``x``, as two's complement (-1 has 64). Interpreted, and
    under NUMBA_DISABLE_JIT=1; compiled code calls the overload below."""
    return bin(int(x) & 0xFFFF_FFFF_FFFF_FFFF).count("1")


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        word = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.call(builder.module.declare_intrinsic("llvm.ctpop", [word.type]), [word])

    return types.int64(x), codegen


@overload(popcount, inline="always")
def _popcount(x):
    if isinstance(x, types.Integer):
        return lambda x: _ctpop(x)
    return None
