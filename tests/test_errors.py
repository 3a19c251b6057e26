"""solver.errors.Gather: independent parses of one request, their input errors raised together."""
import pytest

from solver.errors import Gather, InputError, InputErrors


def _bad(field: str):
    def parse(*_):
        raise ValueError(f"{field}: is wrong")
    return parse


def test_errors_of_several_parses_are_raised_together_in_order():
    gather = Gather()
    assert gather(int, "7") == 7
    assert gather(_bad("side")) is None
    assert gather(lambda: (_ for _ in ()).throw(InputErrors([InputError("a[0]", "x"), InputError("a[2]", "y")]))) is None
    assert gather(_bad("plan.border")) is None
    with pytest.raises(InputErrors) as err:
        gather.check()
    assert [(e.field, e.description) for e in err.value.errors] == [
        ("side", "is wrong"), ("a[0]", "x"), ("a[2]", "y"), ("plan.border", "is wrong")]


def test_one_error_is_raised_as_itself_and_none_raises_nothing():
    gather = Gather()
    gather.check()
    gather(_bad("nursery"))
    with pytest.raises(InputError) as err:
        gather.check()
    assert not isinstance(err.value, InputErrors) and str(err.value) == "nursery: is wrong"


def test_a_value_error_without_a_field_and_other_exceptions_propagate_at_once():
    gather = Gather()
    with pytest.raises(ValueError, match="no field here"):
        gather(lambda: (_ for _ in ()).throw(ValueError("no field here")))
    with pytest.raises(KeyError):
        gather({}.__getitem__, "x")
    assert gather.errors == []
