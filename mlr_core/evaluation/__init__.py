"""The evaluation layer: the multi-label measures (``measures``), the expected-fitness theory
(``theory``), comparing learners over datasets (``statistics``, ``cd_diagram``), the paper's
experiment (``paper``), and cross-validating any learners on any datasets (``experiments``, with
the field's learners in ``learners``; ``report`` draws saved results)."""
