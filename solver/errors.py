"""Domain errors: bad input named by field, so every caller (CLI, gRPC) can report it precisely."""
from __future__ import annotations

import re


class InputError(ValueError):
    """Malformed or out-of-range input. `field` is a path such as "placements[3].rotation"."""

    def __init__(self, field: str, message: str, value: object = None):
        self.field = field
        self.value = value
        self.description = message
        super().__init__(f"{field}: {message}" + ("" if value is None else f" (got {value!r})"))


class InputErrors(InputError):
    """Several input errors at once; `errors` lists them (the first one is also the headline)."""

    def __init__(self, errors: list[InputError]):
        if not errors:
            raise ValueError("InputErrors needs at least one error")
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.field, first.description, first.value)
        self.args = ("; ".join(str(e) for e in self.errors),)

    def __str__(self) -> str:
        return self.args[0]


# "field: message", the form of the engines' plain ValueErrors (a field path such as "days[2].plants[0].at")
_FIELD_MESSAGE = re.compile(r"^([A-Za-z_][\w.\[\]]*): (.+)$", re.S)


def under(prefix: str, exc: ValueError) -> InputError:
    """`exc` (an InputError, InputErrors, or a plain ValueError reading "field: message") with every field moved
    under `prefix`: an engine names the fields of its own argument, the caller's request holds it at `prefix`."""
    moved = []
    for e in exc.errors if isinstance(exc, InputErrors) else [exc]:
        if isinstance(e, InputError):
            field, message, value = e.field, e.description, e.value
        else:
            match = _FIELD_MESSAGE.match(str(e))
            field, message, value = (match.group(1), match.group(2), None) if match else ("", str(e), None)
        path = prefix + ("" if not field else field if field.startswith("[") else "." + field)
        moved.append(InputError(path, message, value))
    return moved[0] if len(moved) == 1 else InputErrors(moved)


class Gather:
    """Runs independent parses of one request and raises their input errors together: a request with several
    bad fields is told about all of them at once, not one per round trip.

        gather = Gather()
        sheet = gather(catalog.sheet, d.get("side"))   # None when it failed
        plan = gather(parse_plan, d.get("plan"), catalog)
        gather.check()                                 # raises the error, or InputErrors for several

    An InputError (or InputErrors) is kept as it is; a plain ValueError reading "field: message" becomes an
    InputError of that field; any other exception propagates at once."""

    def __init__(self) -> None:
        self.errors: list[InputError] = []

    def __call__(self, parse, *args, **kwargs):
        try:
            return parse(*args, **kwargs)
        except InputError as exc:
            self.errors += exc.errors if isinstance(exc, InputErrors) else [exc]
        except ValueError as exc:
            match = _FIELD_MESSAGE.match(str(exc))
            if match is None:
                raise
            self.errors.append(InputError(match.group(1), match.group(2)))
        return None

    def check(self) -> None:
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise InputErrors(self.errors)
