"""Memory resources of the vector core: the UB ports and banks, the store queue, memory barriers."""
from __future__ import annotations

import heapq
from collections import deque

from toolkit.machine import Machine

from .base import Bound, OpClass, StreamStats, Unit, throughput

LD, ST, BAR = OpClass.LOAD, OpClass.STORE, OpClass.MEMBAR


def ub_banks(machine: Machine, addr: int, nbytes: int, blocks: int = 0, stride: int = 1) -> int:
    """Bit mask of the (bank group, bank) pairs touched by the 32 B blocks of [addr, addr + nbytes), or
    by ``blocks`` blocks ``stride`` blocks apart from ``addr``: bit ``bank * groups + group``
    (ascend950-facts 1.2: address bits [7:5] pick the group, bit [8] the bank)."""
    core = machine.params["core"]
    block, groups, banks = core["block_bytes"], core["ub_bank_groups"], core["ub_banks_per_group"]
    first = addr // block
    idx = (range(first, first + blocks * stride, stride) if blocks
           else range(first, (addr + max(nbytes, 1) - 1) // block + 1))
    mask, full = 0, (1 << groups * banks) - 1
    for blk in idx:
        mask |= 1 << ((blk // groups) % banks * groups + blk % groups)
        if mask == full:
            break
    return mask


class MemoryOrder(Unit):
    """RV_MEMBAR: it issues once every earlier store has issued and completed + ``membar_release``, and
    holds every later load/store until it has issued. Its effect on the cycles is in the dependency-chain
    bound (:func:`toolkit.timing.vf_bounds.critical_path`)."""

    serves = frozenset({LD, ST, BAR})
    dispatch_classes = frozenset({ST, BAR})

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.release = p["membar_release"]
        self.issue = core.issue
        self.open_bars: list[int] = []          # dispatched, unissued membars (program order)
        self.open_stores: deque[int] = deque()  # dispatched stores, program order (issued ones dropped
                                                # from the front when a membar looks)
        self.stores_pending: list[int] = []     # completion times of stores issued since a membar

    def dispatched(self, i, row, t) -> bool:
        (self.open_bars if row.cls == BAR else self.open_stores).append(i)
        return False

    def can_issue(self, i, row, t) -> bool:
        if row.cls != BAR:
            return not (self.open_bars and self.open_bars[0] < i)
        stores = self.open_stores
        while stores and self.issue[stores[0]] >= 0:
            stores.popleft()
        return not (stores and stores[0] < i or any(s + self.release > t for s in self.stores_pending))

    def reserve(self, i, row, t) -> None:
        if row.cls == ST:
            self.stores_pending.append(t + row.dur)
        elif row.cls == BAR:
            self.open_bars.remove(i)
            self.stores_pending.clear()

    def next_free(self, t: int) -> list[int]:
        return [s + self.release for s in self.stores_pending]


class StoreQueue(Unit):
    """``store_queue`` entries: a store holds one from its issue until it completes (its duration)."""

    serves = frozenset({ST})

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.size = p["store_queue"]
        self.inflight: list[int] = []           # completion times of issued stores (heap)

    def can_issue(self, i, row, t) -> bool:
        q = self.inflight
        while q and q[0] <= t:
            heapq.heappop(q)
        return len(q) < self.size

    def reserve(self, i, row, t) -> None:
        heapq.heappush(self.inflight, t + row.dur)

    def next_free(self, t: int) -> list[int]:
        return self.inflight[:1]

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        return {Bound.STORE_QUEUE: throughput(float(stats.dur[ST]) / p["store_queue"], stats.shortest[ST],
                                              p["dispatch_to_issue"])}


class UbPorts(Unit):
    """The VF's UB ports: ``ub_slots`` accesses per cycle, at most ``ub_write_slots`` writes, each for
    its ii; and the banks of the recorded UB address (:func:`ub_banks`; rule ``bank_conflicts``): a
    store may not share a bank with another access of its cycle and keeps its banks
    ``store_bank_cycles`` cycles; with "all" same-bank reads serialise too. Reservations are per cycle
    (they hold no event of their own: a refused access is retried at the next event of the others).
    Bound: the accesses over the ports, the stores over the write ports."""

    serves = frozenset({LD, ST})

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.slots, self.write_slots = p["ub_slots"], p["ub_write_slots"]
        self.same_bank_reads_conflict = p["bank_conflicts"] == "all"
        self.store_bank_extra = p["store_bank_cycles"] - 1
        self.used: dict[int, int] = {}                   # cycle -> accesses
        self.written: dict[int, int] = {}                # cycle -> writes
        self.banks: dict[int, tuple[int, int]] = {}      # cycle -> (read bank mask, write bank mask)

    def can_issue(self, i, row, t) -> bool:
        store = row.cls == ST
        bank, span = row.bank, row.span
        hold = span + self.store_bank_extra if store else span      # a write keeps its banks longer
        used, written, banks = self.used, self.written, self.banks
        for k in range(hold):
            if k < span and (used.get(t + k, 0) >= self.slots
                             or store and written.get(t + k, 0) >= self.write_slots):
                return False
            if bank:
                reads, writes = banks.get(t + k, (0, 0))
                if bank & writes or (store or self.same_bank_reads_conflict) and bank & reads:
                    return False
        return True

    def reserve(self, i, row, t) -> None:
        store = row.cls == ST
        bank, span = row.bank, row.span
        hold = span + self.store_bank_extra if store else span
        used, written, banks = self.used, self.written, self.banks
        for k in range(hold):
            if k < span:
                used[t + k] = used.get(t + k, 0) + 1
                if store:
                    written[t + k] = written.get(t + k, 0) + 1
            if bank:
                reads, writes = banks.get(t + k, (0, 0))
                banks[t + k] = (reads, writes | bank) if store else (reads | bank, writes)

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        busy = max(float(stats.span[LD] + stats.span[ST]) / p["ub_slots"], float(stats.span[ST]) / p["ub_write_slots"])
        return {Bound.UB_PORTS: throughput(busy, stats.shortest_of(LD, ST), p["dispatch_to_issue"])}
