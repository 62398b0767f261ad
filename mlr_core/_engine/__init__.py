"""The compiled engine, one module per step of the LCS cycle (private: the estimator is the
public face).

``population`` the rules as arrays; ``matching`` [M]; ``covering`` a new rule when [C] is empty;
``update`` experience, accuracy, fitness and correct-set size; ``ga`` selection, crossover and
mutation in [C]; ``subsumption``; ``deletion`` down to N copies; ``cycle`` one training iteration
after the other; ``voting`` the votes behind a prediction. ``rng`` and ``jit`` serve them all.
"""
