"""The mutation list (tests/mutants.py) keeps up with the code: a mutant whose text is no
longer once in its file is not run, and a mutation run would silently test less."""

from mutants import MUTANTS, ROOT


def test_each_mutant_changes_text_found_once_in_its_file():
    stale = [(n, file, old[:60]) for n, (file, old, new, first) in enumerate(MUTANTS)
             if (ROOT / file).read_text().count(old) != 1 or old == new
             or not all((ROOT / "tests" / f).exists() for f in first)]
    assert not stale
