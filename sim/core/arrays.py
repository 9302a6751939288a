"""Copies between the engines' state buffers: in compiled code one ``memcpy`` (LLVM's
intrinsic) over a range of a one-dimensional array.

A loop ``for i in range(start, stop): dst[i] = src[i]`` compiles badly in numba when it cannot
prove ``start`` non-negative (a seat's block, a park's dice): each index is checked for a
negative value, and the copy is not vectorised. Over unsigned indices it is vectorised, but
with a check of the two arrays' overlap and loops of its own at every inlined call site
(Dice Theme Park's first compile took 2-4 s longer in two short series); a ``memcpy`` is one
call, as fast.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def copy_range(dst, src, start, stop) -> None:
    """dst[start:stop] = src[start:stop] for two distinct arrays of one dtype (nothing when
    stop <= start). Interpreted, and under NUMBA_DISABLE_JIT=1; compiled code calls the
    overload below, which allocates nothing (the game kernels run without numba's
    allocator)."""
    if stop > start:
        dst[start:stop] = src[start:stop]


@intrinsic
def _memcpy(typingctx, dst, src, start, stop):
    if not (isinstance(dst, types.Array) and isinstance(src, types.Array)
            and dst.ndim == 1 and src.ndim == 1 and dst.dtype == src.dtype
            and dst.layout == "C" and src.layout == "C"
            and isinstance(start, types.Integer) and isinstance(stop, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        to = context.make_array(signature.args[0])(context, builder, args[0])
        of = context.make_array(signature.args[1])(context, builder, args[1])
        lo = context.cast(builder, args[2], signature.args[2], types.intp)
        hi = context.cast(builder, args[3], signature.args[3], types.intp)
        size = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        cgutils.raw_memcpy(builder, builder.gep(to.data, [lo]), builder.gep(of.data, [lo]),
                           builder.sub(hi, lo), size)
        return context.get_dummy_value()

    return types.none(dst, src, start, stop), codegen


@overload(copy_range, inline="always")
def _copy_range(dst, src, start, stop):
    if isinstance(dst, types.Array) and isinstance(src, types.Array):
        def impl(dst, src, start, stop):
            if stop > start:
                _memcpy(dst, src, start, stop)
        return impl
    return None
