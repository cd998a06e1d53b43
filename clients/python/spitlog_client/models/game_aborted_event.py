from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GameAbortedEvent")


@_attrs_define
class GameAbortedEvent:
    """The game was aborted, no one winning: nobody joined (T-5), a seat resigned before it began (E-5), under T-6 by the
    operator (`spitlog admin abort`) or the service (a hosted bot whose decisions it could not run, a seat whose
    requests it refused for `idle_forfeit_s`): `by` says which, `why` says why, in words; or, reason `unplayed`, a rated
    game ended by a resignation or a T-4 forfeit before both seats had made a move (no result, as on Lichess;
    docs/decisions/0027), `why` saying which. A log written before T-6 may hold an operator's abort as reason `admin`,
    with no `by` or `why`: it counts as T-6 by the operator.

        Attributes:
            version (int): the event's place in the log (1 = first)
            type_ (Literal['game_aborted']):  Default: 'game_aborted'.
            reason (str):
            at (float): when, in seconds since the epoch
            by (None | str | Unset):
            why (None | str | Unset):
    """

    version: int
    reason: str
    at: float
    type_: Literal["game_aborted"] = "game_aborted"
    by: None | str | Unset = UNSET
    why: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        reason = self.reason

        at = self.at

        by: None | str | Unset
        if isinstance(self.by, Unset):
            by = UNSET
        else:
            by = self.by

        why: None | str | Unset
        if isinstance(self.why, Unset):
            why = UNSET
        else:
            why = self.why

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
        if by is not UNSET:
            field_dict["by"] = by
        if why is not UNSET:
            field_dict["why"] = why

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

        def _parse_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        by = _parse_by(d.pop("by", UNSET))

        def _parse_why(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        why = _parse_why(d.pop("why", UNSET))

        game_aborted_event = cls(
            version=version,
            type_=type_,
            reason=reason,
            at=at,
            by=by,
            why=why,
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
