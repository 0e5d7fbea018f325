"""One MemBase vector call as a row operation: ``R`` rows of ``W`` elements, every operand an access
``byte(r, c) = base + r * rs + (cs * c + phase) * size`` into one UB storage.

The count form is one row of ``count`` elements (``flat``: it may later be split into the region's
rows). The level-0 form is ``repeatTime`` rows of ``mask`` lanes with each operand's repeat stride as
its row stride; block stride 1 reads the lanes contiguously, block stride 0 re-reads one 32 B block
(``cs = "blk"``: the Brcb idiom). A level-0 call whose operands are all dense (repeat stride = one VL)
under a full mask is the count form of ``repeatTime * lanes`` elements. A call inside a region loop
``for (row = 0; row < N; ++row)`` adds the loop as its rows, the offset's coefficient of ``row`` as
the row stride.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import cexpr as C
from .apis import BLOCK_BYTES, ROUND_MODES, RULES, Rule, block_elems, lanes
from .poly import ONE, Poly
from .scope import PortError, Root, Scope, View, elem_size


@dataclass(frozen=True)
class Acc:
    root: Root
    base: Poly          #: byte offset of element (0, 0)
    rs: Poly            #: bytes between rows
    dtype: str
    cs: object = 1      #: element stride along a row: 1, 2 (every other element), "blk" (one block), 0
    phase: int = 0      #: first element of a stride-2 access (0 even, 1 odd)
    text: str = field(default="", compare=False)

    @property
    def size(self) -> int:
        return elem_size(self.dtype)


@dataclass
class Op:
    index: int
    line: int
    text: str
    rule: Rule
    R: Poly
    W: Poly
    dst: Acc
    srcs: list[Acc]
    flat: bool = False                 #: count form: may be split into the region's rows
    scalar: C.Node | None = None       #: the scalar operand (scalar ops, Duplicate)
    round: str = "CAST_NONE"
    loop: str | None = None            #: the region loop variable it sits in
    extra: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.rule.name


def _acc(v: View, line: int) -> Acc:
    return Acc(v.root, v.off, Poly(), v.dtype, 1, 0, v.text)


def lower_call(call: C.Call, index: int, line: int, scope: Scope) -> Op:
    name = call.func.name.split("::")[-1] if isinstance(call.func, C.Name) else ""
    rule = RULES.get(name)
    if rule is None:
        raise PortError(f"no RegBase rule for {name}", line, name)
    args = call.args
    fn = _LOWER[rule.kind]
    return fn(rule, call, args, index, line, scope)


def _count_or_level0(rule: Rule, call, args, index, line, scope: Scope, tensors: int, params_kind: str,
                     scalar: C.Node | None = None, round_mode: str = "CAST_NONE") -> Op:
    views = [scope.view(a, line) for a in args[:tensors]]
    rest = args[tensors:]
    dst, srcs = views[0], views[1:]
    if len(rest) == 1:
        n = scope.poly(rest[0], line)
        return Op(index, line, call.text, rule, ONE, n, _acc(dst, line), [_acc(s, line) for s in srcs], True,
                  scalar, round_mode)
    if len(rest) not in (3, 4):
        raise PortError(f"{rule.name}: argument form not recognised", line, rule.name)
    dt = dst.dtype
    if rule.kind == "cast" and elem_size(dst.dtype) != elem_size(srcs[0].dtype):
        raise PortError("Cast: the level-0 form between widths has no port rule (use the count form)", line, rule.name)
    L = lanes(dt)
    m = scope.mask_lanes(rest[0], L, line)
    rep = scope.poly(rest[1], line)
    if rule.kind == "dup":                      # Duplicate(dst, s, mask, rep, dstBlk, dstRep)
        strides = [(scope.const_int(rest[2], line), scope.const_int(rest[3], line))]
    else:
        p = scope.repeat_params(rest[2], params_kind, line)
        nops = 1 + len(srcs)
        strides = list(zip(p[:nops], p[nops:2 * nops]))
    return _level0(rule, call.text, index, line, dst, srcs, m, rep, strides, L, scalar, round_mode)


def _level0(rule, text, index, line, dst: View, srcs: list[View], m: int, rep: Poly, strides, L: int,
            scalar, round_mode) -> Op:
    E = block_elems(dst.dtype)
    ops = [dst, *srcs]
    dense = all(b == 1 and r * E == L for b, r in strides) and m == L
    blk_bcast = all((b == 1 and r * E == L) or (b == 0 and r == 0) for b, r in strides) and m == L
    if dense or blk_bcast:
        accs = [_acc(v, line) if b == 1 else replace(_acc(v, line), cs="blk") for v, (b, _) in zip(ops, strides)]
        if accs[0].cs != 1:
            raise PortError(f"{rule.name}: destination block stride 0", line, rule.name)
        return Op(index, line, text, rule, ONE, rep * L, accs[0], accs[1:], dense, scalar, round_mode)
    accs = []
    for v, (b, r) in zip(ops, strides):
        if b not in (0, 1):
            raise PortError(f"{rule.name}: block stride {b} (only 1, or 0 for a block broadcast, have a "
                            f"register form)", line, rule.name)
        if b == 0 and m > E:
            cs = "blk"
        else:
            cs = 1
        accs.append(Acc(v.root, v.off, Poly.const(r * BLOCK_BYTES), v.dtype, cs, 0, v.text))
    if accs[0].cs != 1:
        raise PortError(f"{rule.name}: destination block stride 0", line, rule.name)
    return Op(index, line, text, rule, rep, Poly.const(m), accs[0], accs[1:], False, scalar, round_mode)


#: element-wise kinds: (tensor arguments, repeat-parameter type, position of the scalar argument)
_FORMS = {"binary": (3, "BinaryRepeatParams", None), "scalar": (2, "UnaryRepeatParams", 2),
          "unary": (2, "UnaryRepeatParams", None), "dup": (1, "", 1)}


def _elementwise(rule, call, args, index, line, scope):
    tensors, params_kind, at = _FORMS[rule.kind]
    a = list(args)
    sc = a.pop(at) if at is not None else None
    return _count_or_level0(rule, call, a, index, line, scope, tensors, params_kind, scalar=sc)


def _cast(rule, call, args, index, line, scope):
    a = list(args)
    mode = a.pop(2)
    rm = mode.text.split("::")[-1]
    if rm not in ROUND_MODES:
        raise PortError(f"Cast round mode {mode.text} has no register form", line, "Cast")
    return _count_or_level0(rule, call, a, index, line, scope, 2, "UnaryRepeatParams", round_mode=rm)


def _wreduce(rule, call, args, index, line, scope: Scope):
    """``WholeReduceSum(dst, src, mask, repeat, dstRepStride, srcBlkStride, srcRepStride)``: row k of
    ``mask`` lanes at ``src + k * srcRep blocks`` sums into ``dst[k * dstRep]``."""
    if len(args) != 7:
        raise PortError("WholeReduceSum: argument form not recognised", line, rule.name)
    dst, src = scope.view(args[0], line), scope.view(args[1], line)
    m = scope.mask_lanes(args[2], lanes(src.dtype), line)
    rep = scope.poly(args[3], line)
    drep, sblk, srep = (scope.const_int(a, line, "stride") for a in args[4:7])
    if sblk != 1:
        raise PortError(f"WholeReduceSum: source block stride {sblk} has no register form", line, rule.name)
    d = Acc(dst.root, dst.off, Poly.const(drep * elem_size(dst.dtype)), dst.dtype, 1, 0, dst.text)
    s = Acc(src.root, src.off, Poly.const(srep * BLOCK_BYTES), src.dtype, 1, 0, src.text)
    return Op(index, line, call.text, rule, rep, Poly.const(m), d, [s], extra={"dst_w": ONE})


def _brcb(rule, call, args, index, line, scope: Scope):
    """``Brcb(dst, src, repeat, {dstBlk, dstRep})``: block j of dst (8 per repeat) holds ``src[j]``."""
    dst, src = scope.view(args[0], line), scope.view(args[1], line)
    rep = scope.poly(args[2], line)
    blk, drep = scope.repeat_params(args[3], "BrcbRepeatParams", line)
    if (blk or 1) != 1 or drep != 8:
        raise PortError(f"Brcb with block stride {blk} / repeat stride {drep} (only the contiguous 1, 8 layout "
                        f"has a broadcast rule)", line, rule.name)
    E = block_elems(dst.dtype)
    d = Acc(dst.root, dst.off, Poly.const(BLOCK_BYTES), dst.dtype, 1, 0, dst.text)
    s = Acc(src.root, src.off, Poly.const(elem_size(src.dtype)), src.dtype, 0, 0, src.text)
    return Op(index, line, call.text, rule, rep * 8, Poly.const(E), d, [s], extra={"rep_text": args[2].text})


def _gather(rule, call, args, index, line, scope: Scope):
    """``GatherMask(dst, src, pattern, reduceMode, mask, params, rsvdCnt)`` with pattern 1 (even
    elements) or 2 (odd elements): ``dst[i] = src[2 i + pattern - 1]`` over the elements selected."""
    if len(args) != 7:
        raise PortError("GatherMask: argument form not recognised", line, rule.name)
    dst, src = scope.view(args[0], line), scope.view(args[1], line)
    pattern = scope.const_int(args[2], line, "pattern")
    if pattern not in (1, 2):
        raise PortError(f"GatherMask pattern {pattern}: only the even/odd patterns 1 and 2 map to a register "
                        f"relayout (DINTLV / Cast RegLayout)", line, rule.name)
    counter = args[3].text.strip() in ("true", "1")
    b, rep_times, srep, _ = scope.repeat_params(args[5], "GatherMaskParams", line)
    if b != 1:
        raise PortError(f"GatherMask source block stride {b} has no register form", line, rule.name)
    L = lanes(src.dtype)
    if counter:
        if scope.const_int(str(rep_times), line) != 1:
            raise PortError("GatherMask counter mode over several repeats has no port rule", line, rule.name)
        n = scope.poly(args[4], line)
    else:
        if srep * block_elems(src.dtype) != L and rep_times != 1:
            raise PortError("GatherMask normal mode with gaps between repeats has no port rule", line, rule.name)
        n = Poly.const(rep_times * L)
    half = n.div(2)
    if half is None:
        raise PortError(f"GatherMask: {n} elements do not split into pairs", line, rule.name)
    d = Acc(dst.root, dst.off, Poly(), dst.dtype, 1, 0, dst.text)
    s = Acc(src.root, src.off, Poly(), src.dtype, 2, pattern - 1, src.text)
    return Op(index, line, call.text, rule, ONE, half, d, [s], True)


def _creduce(rule, call, args, index, line, scope: Scope):
    """``ReduceSum/ReduceMax/ReduceMin(dst, src, work, count[, calIndex])``: dst[0] = reduce(src[0..count))."""
    if len(args) < 4:
        raise PortError(f"{rule.name}: argument form not recognised", line, rule.name)
    if len(args) >= 5 and args[4].text.strip() not in ("false", "0"):
        raise PortError(f"{rule.name} with calIndex (the index of the extreme) has no port rule", line, rule.name)
    dst, src, work = (scope.view(a, line) for a in args[:3])
    n = scope.poly(args[3], line)
    d = Acc(dst.root, dst.off, Poly(), dst.dtype, 1, 0, dst.text)
    s = Acc(src.root, src.off, Poly(), src.dtype, 1, 0, src.text)
    return Op(index, line, call.text, rule, ONE, n, d, [s], True, extra={"work": work, "dst_w": ONE})


_LOWER = {"binary": _elementwise, "scalar": _elementwise, "unary": _elementwise, "dup": _elementwise, "cast": _cast,
          "wreduce": _wreduce, "brcb": _brcb, "gather": _gather, "creduce": _creduce}


def in_loop(op: Op, var: str, extent: Poly) -> Op:
    """The op inside ``for (var = 0; var < extent; ++var)``: the loop becomes its rows."""
    accs = [op.dst, *op.srcs]
    if not op.R == ONE:
        raise PortError(f"{op.name} with {op.R} repeats inside a loop over {var}: two row levels", op.line, op.name)
    new = []
    for a in accs:
        if not a.base.affine_in(var):
            raise PortError(f"offset {a.base} is not affine in {var}", op.line, op.name)
        new.append(replace(a, base=a.base.without(var), rs=a.base.coeff(var)))
    return replace(op, R=extent, dst=new[0], srcs=new[1:], flat=False, loop=var)
