from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeadlineExpiredEvent")


@_attrs_define
class DeadlineExpiredEvent:
    """A timer of T-1..T-5 expired (`seat`: whose, for T-4), or a seat's idle clock ran out where the service, not the
    seat, kept it from acting (T-6, `seat`: a hosted bot whose decisions the service failed to run, or a seat whose
    requests it refused for `idle_forfeit_s`).

        Attributes:
            version (int): the event's place in the log (1 = first)
            type_ (Literal['deadline_expired']):  Default: 'deadline_expired'.
            rule (str):
            seat (int | None):
            at (float): when, in seconds since the epoch
    """

    version: int
    rule: str
    seat: int | None
    at: float
    type_: Literal["deadline_expired"] = "deadline_expired"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        rule = self.rule

        seat: int | None
        seat = self.seat

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "rule": rule,
                "seat": seat,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["deadline_expired"], d.pop("type"))
        if type_ != "deadline_expired":
            raise ValueError(f"type must match const 'deadline_expired', got '{type_}'")

        rule = d.pop("rule")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        at = d.pop("at")

        deadline_expired_event = cls(
            version=version,
            type_=type_,
            rule=rule,
            seat=seat,
            at=at,
        )

        deadline_expired_event.additional_properties = d
        return deadline_expired_event

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
