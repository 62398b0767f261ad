"""The rule population as a struct of arrays: create, insert, copy and remove rules.

A rule's condition is stored sparsely: the sorted indices of its specified (non-wildcard) features
and their centre and spread on the [0, 1]-scaled axes (XCSF's ``hyperrectangle_csr``: x matches
when ``|x - c| <= s``; keeping c and s themselves makes the JSON export exact). The unused
condition slots of a rule hold a test every x passes (spread = inf), so that matching
(``matching.py``) can check all slots without branching.
A nominal feature's axis holds its category code (0, 1, 2, ...); a slot that tests it holds the
set of allowed codes as a bitmask (``allowed``: bit c for code c, at most `MAX_CATEGORIES`) and
centre 0, spread 0, which no kernel reads for it; every other slot holds `NO_SET`. A population
without nominal features keeps ``allowed`` 0 slots wide (`has_sets` is False), so that numeric
data is matched by exactly the kernels it had before.
Rules occupy slots ``0 .. size-1`` contiguously; removal moves the last rule into the hole.
"""

from collections import namedtuple

import numpy as np

from mlr_core._engine.jit import njit

MAX_CATEGORIES = 64
"""The most categories a nominal feature may have: its set of allowed codes is one uint64."""
NO_SET = np.uint64(2**64 - 1)
"""``allowed`` of a slot that tests no nominal feature (and of an empty slot)."""


class Field(namedtuple("Field", "name dtype per_slot empty stat")):
    """One per-rule array of the population: its dtype, whether it holds one value per condition
    slot (a row of ``max_specified``) or one per rule, the value of an empty slot, and the name
    a rule statistic goes by outside the engine (saved models, ``mlr_core/model_file.py``; None:
    part of the condition or labelset, saved otherwise)."""


RULE_FIELDS = (
    Field("feat", np.int32, True, 0, None),  # the specified features, sorted
    Field("center", np.float64, True, 0.0, None),
    Field("spread", np.float64, True, np.inf, None),  # inf: the slot passes every x
    Field("allowed", np.uint64, True, NO_SET, None),  # a nominal slot's codes (see has_sets)
    Field("nspec", np.int32, False, 0, None),  # how many slots are specified
    Field("ls", np.int32, False, 0, None),  # the labelset's row
    Field("num", np.int64, False, 0, "numerosity"),
    Field("exp", np.int64, False, 0, "experience"),
    Field("correct", np.float64, False, 0.0, "correct"),
    Field("acc", np.float64, False, 0.0, "accuracy"),
    Field("fit", np.float64, False, 0.0, "fitness"),
    Field("cs", np.float64, False, 0.0, "correct_set_size"),
    Field("ts", np.int64, False, 0, "last_ga"),
    Field("birth", np.int64, False, 0, "birth"),
)
"""The population's per-rule arrays, the one place its layout is named: everything that
allocates, copies, slices or saves rules goes through these names."""
RULE_ARRAYS = tuple(field.name for field in RULE_FIELDS)

# The arrays of one population, then two counts: ``size`` (macro rules, in slots 0 .. size-1)
# and ``micro`` (their summed numerosity), 1-element arrays so kernels can update them in place.
Population = namedtuple("Population", (*RULE_ARRAYS, "size", "micro"))


def new_population(capacity: int, max_specified: int, sets: bool = False) -> Population:
    """An empty population with room for ``capacity`` macro rules of at most ``max_specified``
    specified features each; ``sets``: the data has nominal features (``allowed`` is as wide
    as the other per-slot arrays, else 0 wide)."""
    k = max(int(max_specified), 1)

    def shape(f):
        if not f.per_slot:
            return capacity
        return capacity, (k if sets or f.name != "allowed" else 0)

    arrays = [np.full(shape(f), f.empty, dtype=f.dtype) for f in RULE_FIELDS]
    return from_arrays(arrays, 0, 0)


def rule_arrays(pop: Population) -> tuple:
    """The per-rule arrays of ``pop``, in `RULE_FIELDS` order."""
    return tuple(getattr(pop, name) for name in RULE_ARRAYS)


def from_arrays(arrays, size: int, micro: int) -> Population:
    """A population of per-rule ``arrays`` (`RULE_FIELDS` order) holding ``size`` rules of
    ``micro`` copies."""
    return Population(*arrays, np.array([size], dtype=np.int64),
                      np.array([micro], dtype=np.int64))


def population_bytes(capacity: int, max_specified: int, sets: bool = False) -> int:
    """The memory `new_population` would take, known before allocating it."""
    one = new_population(1, max_specified, sets)
    return int(capacity) * sum(a.nbytes for a in rule_arrays(one))


@njit(inline="always")
def has_sets(pop):
    """True if ``pop`` can hold nominal tests (its data has nominal features)."""
    return pop.allowed.shape[1] > 0


def live(pop: Population) -> Population:
    """Views of the occupied slots only (``size`` and ``micro`` unchanged)."""
    n = int(pop.size[0])
    return Population(*(a[:n] for a in rule_arrays(pop)), pop.size, pop.micro)


def take(pop: Population, ids) -> Population:
    """Rules ``ids`` of ``pop`` (copied) as a population with exactly that many slots."""
    arrays = [np.ascontiguousarray(a[ids]) for a in rule_arrays(pop)]
    return from_arrays(arrays, len(ids), int(pop.num[ids].sum()))


def copy_into(target: Population, source: Population) -> None:
    """Copy the live rules of ``source`` into the first slots of ``target`` (at least as many
    slots, at least as wide: the extra condition slots keep their empty values) and its
    counts."""
    size = int(source.size[0])
    for into, values in zip(rule_arrays(target), rule_arrays(source), strict=True):
        if into.ndim == 2:
            into[:size, :values.shape[1]] = values[:size]
        else:
            into[:size] = values[:size]
    target.size[0], target.micro[0] = size, source.micro[0]


def concatenate(a: Population, b: Population) -> Population:
    """The live rules of ``a`` followed by those of ``b`` (of the same width), as one population
    with exactly as many slots as rules."""
    na, nb = int(a.size[0]), int(b.size[0])
    fields = [np.concatenate([x[:na], _widened(y[:nb], x.shape[1:], f.empty)])
              for x, y, f in zip(rule_arrays(a), rule_arrays(b), RULE_FIELDS, strict=True)]
    return from_arrays(fields, na + nb, int(a.micro[0] + b.micro[0]))


def _widened(values: np.ndarray, shape: tuple, empty) -> np.ndarray:
    """``values`` with as many slots per rule as ``shape`` says, the new ones ``empty``: rules
    without nominal tests (0-wide ``allowed``) beside rules that may have them."""
    if values.shape[1:] == shape:
        return values
    out = np.full((len(values), *shape), empty, dtype=values.dtype)
    out[:, :values.shape[1]] = values
    return out


def bound_pairs(pop: Population):
    """(rule, feature, lower, upper) of each condition slot of the live rules, rule-major, on
    the scaled axes (clipped to [0, 1]): the cells of `dense_bounds` that are not NaN, without
    its ``size x d`` matrices (3,000 rules of 20,000 words: 480 MB each)."""
    p = live(pop)
    rows, slots = np.nonzero(np.arange(p.feat.shape[1])[None, :] < p.nspec[:, None])
    return (rows, p.feat[rows, slots],
            np.maximum(p.center[rows, slots] - p.spread[rows, slots], 0.0),
            np.minimum(p.center[rows, slots] + p.spread[rows, slots], 1.0))


def dense_bounds(pop: Population, n_features: int):
    """(lower, upper) as ``size x d`` arrays on the scaled axes (clipped to [0, 1]), NaN where a
    feature is a wildcard."""
    n = len(live(pop).nspec)
    lower = np.full((n, n_features), np.nan)
    upper = np.full((n, n_features), np.nan)
    rows, cols, lower_at, upper_at = bound_pairs(pop)
    lower[rows, cols], upper[rows, cols] = lower_at, upper_at
    return lower, upper


def generality(pop: Population, n_features: int, levels=None) -> np.ndarray:
    """Per rule, the mean over features of the covered fraction of the axis (wildcards count 1;
    a nominal test, with ``levels`` the features' category counts, its share of the
    categories)."""
    p = live(pop)
    width = np.minimum(p.center + p.spread, 1.0) - np.maximum(p.center - p.spread, 0.0)
    if p.allowed.shape[1]:
        nominal = p.allowed != NO_SET
        share = set_sizes(p.allowed) / np.maximum(np.asarray(levels)[p.feat], 1)
        width = np.where(nominal, share, width)
    widths = np.where(np.arange(p.center.shape[1])[None, :] < p.nspec[:, None], width, 0.0)
    return (n_features - p.nspec + widths.sum(axis=1)) / n_features


def set_sizes(allowed: np.ndarray) -> np.ndarray:
    """How many codes each bitmask in ``allowed`` holds."""
    as_bytes = np.ascontiguousarray(allowed, dtype=np.uint64)[..., None].view(np.uint8)
    return np.unpackbits(as_bytes, axis=-1).sum(axis=-1)


def allowed_lists(pop: Population, i: int, n_features: int) -> list:
    """Rule ``i``'s nominal tests as a model file holds them: per feature null, or the codes
    its set allows."""
    out = [None] * n_features
    for k in range(int(pop.nspec[i])):
        if pop.allowed[i, k] != NO_SET:
            mask = int(pop.allowed[i, k])
            out[int(pop.feat[i, k])] = [c for c in range(MAX_CATEGORIES) if mask >> c & 1]
    return out


def dense_sets(pop: Population, n_features: int) -> np.ndarray | None:
    """``size x d``: each rule's set of allowed codes per nominal feature it tests, `NO_SET`
    elsewhere; None for a population without nominal tests."""
    if not has_sets(pop):
        return None
    p = live(pop)
    out = np.full((len(p.nspec), n_features), NO_SET)
    rows, slots = np.nonzero(np.arange(p.feat.shape[1])[None, :] < p.nspec[:, None])
    out[rows, p.feat[rows, slots]] = p.allowed[rows, slots]
    return out


def _copy_rule_between_source() -> str:
    lines = [f"    b.{name}[j] = a.{name}[i]" for name in RULE_ARRAYS if name != "allowed"]
    lines.append("    if has_sets(b):  # numeric data has no sets to copy\n"
                 "        b.allowed[j] = a.allowed[i]")
    return ("def copy_rule_between(a, i, b, j):\n"
            '    """Copy every field of rule ``i`` of population ``a`` into slot ``j`` of '
            'population ``b`` (of the same width)."""\n' + "\n".join(lines) + "\n")


def _compiled(source: str, name: str):
    """A function written out from `RULE_ARRAYS` (so that a kernel copying a rule names every
    field without restating them), compiled as this file's own: numba caches it beside the
    others. The namespace names this module: numba saves a cached kernel's module by
    ``__name__``, and without one a process that loaded the kernel from the cache failed in
    ``_rebuild_env`` with "'NoneType' object has no attribute 'startswith'" (numba issue
    10485: https://github.com/numba/numba/issues/10485)."""
    namespace = {"__name__": __name__, "has_sets": has_sets}
    exec(compile(source, __file__, "exec"), namespace)  # noqa: S102 - our own text, above
    return namespace[name]


copy_rule_between = njit(_compiled(_copy_rule_between_source(), "copy_rule_between"))


@njit
def copy_rule(pop, src, dst):
    """Copy every field of rule ``src`` into slot ``dst``."""
    copy_rule_between(pop, src, pop, dst)


@njit
def remove_rule(pop, i):
    """Drop rule ``i`` (all its copies) by moving the last rule into its slot."""
    pop.micro[0] -= pop.num[i]
    last = pop.size[0] - 1
    if i != last:
        copy_rule(pop, last, i)
    pop.num[last] = 0
    pop.size[0] = last


@njit
def same_condition(pop, i, nspec, feat, center, spread):
    """True if rule ``i``'s intervals (and wildcards) equal the given sparse condition's
    exactly; `same_sets` compares its nominal tests' sets.

    `insert_rule` calls it for every rule of the labelset, so it stays this small and is not
    inlined: with the sets' loop in it (or inlined into that scan), numba took a reference to
    each of the population's arrays per rule scanned, and a GA on yeast took 12 us, not 7."""
    if pop.nspec[i] != nspec:
        return False
    for k in range(nspec):
        if (pop.feat[i, k] != feat[k] or pop.center[i, k] != center[k]
                or pop.spread[i, k] != spread[k]):
            return False
    return True


@njit
def same_sets(pop, i, nspec, allowed):
    """True if rule ``i``'s sets equal ``allowed``, given a `same_condition` (always, for a
    population without them)."""
    if has_sets(pop):
        for k in range(nspec):
            if pop.allowed[i, k] != allowed[k]:
                return False
    return True


@njit
def insert_rule(pop, nspec, feat, center, spread, allowed, ls, fit, acc, cs, iteration):
    """Add one copy of a rule: merged into an identical rule (numerosity + 1) if one exists,
    otherwise appended as a new inexperienced rule. Returns its slot. ``allowed`` is read only
    where `has_sets`."""
    for i in range(pop.size[0]):
        if (pop.ls[i] == ls and same_condition(pop, i, nspec, feat, center, spread)
                and same_sets(pop, i, nspec, allowed)):
            pop.num[i] += 1
            pop.micro[0] += 1
            return i
    i = pop.size[0]
    pop.feat[i, :nspec] = feat[:nspec]
    pop.center[i, :nspec] = center[:nspec]
    pop.spread[i, :nspec] = spread[:nspec]
    pop.feat[i, nspec:] = 0
    pop.center[i, nspec:] = 0.0
    pop.spread[i, nspec:] = np.inf
    if has_sets(pop):
        pop.allowed[i, :nspec] = allowed[:nspec]
        pop.allowed[i, nspec:] = NO_SET
    pop.nspec[i] = nspec
    pop.ls[i] = ls
    pop.num[i] = 1
    pop.exp[i] = 0
    pop.correct[i] = 0.0
    pop.acc[i] = acc
    pop.fit[i] = fit
    pop.cs[i] = cs
    pop.ts[i] = iteration
    pop.birth[i] = iteration
    pop.size[0] = i + 1
    pop.micro[0] += 1
    return i
