# A package, so that pytest imports this directory's conftest as ``serverapi.conftest``: the binding's
# tests run in the same session and do ``from conftest import ...``, which a second top-level
# ``conftest`` module would shadow.
