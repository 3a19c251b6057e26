"""Domain errors: bad input named by field, so every caller (CLI, gRPC) can report it precisely."""
from __future__ import annotations


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
