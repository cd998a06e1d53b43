from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GameAbortedEvent")


@_attrs_define
class GameAbortedEvent:
    """The game was aborted: nobody joined (T-5), a seat resigned before it began (E-5), or the operator aborted it (reason
    ``admin``, ``domain.Abort``).

        Attributes:
            version (int): the event's place in the log (1 = first)
            type_ (Literal['game_aborted']):  Default: 'game_aborted'.
            reason (str):
            at (float): when, in seconds since the epoch
    """

    version: int
    reason: str
    at: float
    type_: Literal["game_aborted"] = "game_aborted"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        reason = self.reason

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "reason": reason,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["game_aborted"], d.pop("type"))
        if type_ != "game_aborted":
            raise ValueError(f"type must match const 'game_aborted', got '{type_}'")

        reason = d.pop("reason")

        at = d.pop("at")

        game_aborted_event = cls(
            version=version,
            type_=type_,
            reason=reason,
            at=at,
        )

        game_aborted_event.additional_properties = d
        return game_aborted_event

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
