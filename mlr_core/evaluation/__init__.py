"""The evaluation layer: the multi-label measures (``measures``), the expected-fitness theory
(``theory``), comparing learners over datasets (``statistics``) and the paper's experiment
(``paper``)."""
