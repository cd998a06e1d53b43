from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rematch_status import RematchStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.speed_state import SpeedState
    from ..models.spit_state import SpitState


T = TypeVar("T", bound="Rematch")


@_attrs_define
class Rematch:
    """
    Attributes:
        status (RematchStatus):
        game (None | str | Unset): the new game, once made
        asked (list[bool] | Unset):
        until (str | Unset): asks count until then
        seat (int | None | Unset): your seat: in the old game while offered, in the new one once made
        token (str | Unset): your seat's token in the new game (a seat's caller only; not once the old game has left
            Redis for the archive, which does not keep the secret it derives from)
        state (SpeedState | SpitState | Unset): A game's state as you may see it, by its `game`.
    """

    status: RematchStatus
    game: None | str | Unset = UNSET
    asked: list[bool] | Unset = UNSET
    until: str | Unset = UNSET
    seat: int | None | Unset = UNSET
    token: str | Unset = UNSET
    state: SpeedState | SpitState | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spit_state import SpitState  # noqa: PLC0415

        status = self.status.value

        game: None | str | Unset
        if isinstance(self.game, Unset):
            game = UNSET
        else:
            game = self.game

        asked: list[bool] | Unset = UNSET
        if not isinstance(self.asked, Unset):
            asked = self.asked

        until = self.until

        seat: int | None | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        token = self.token

        state: dict[str, Any] | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        elif isinstance(self.state, SpitState):
            state = self.state.to_dict()
        else:
            state = self.state.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )
        if game is not UNSET:
            field_dict["game"] = game
        if asked is not UNSET:
            field_dict["asked"] = asked
        if until is not UNSET:
            field_dict["until"] = until
        if seat is not UNSET:
            field_dict["seat"] = seat
        if token is not UNSET:
            field_dict["token"] = token
        if state is not UNSET:
            field_dict["state"] = state

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.speed_state import SpeedState  # noqa: PLC0415
        from ..models.spit_state import SpitState  # noqa: PLC0415

        d = dict(src_dict)
        status = RematchStatus(d.pop("status"))

        def _parse_game(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        game = _parse_game(d.pop("game", UNSET))

        asked = cast(list[bool], d.pop("asked", UNSET))

        until = d.pop("until", UNSET)

        def _parse_seat(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        token = d.pop("token", UNSET)

        def _parse_state(data: object) -> SpeedState | SpitState | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_state_type_0 = SpitState.from_dict(data)

                return componentsschemas_state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_state_type_1 = SpeedState.from_dict(data)

            return componentsschemas_state_type_1

        state = _parse_state(d.pop("state", UNSET))

        rematch = cls(
            status=status,
            game=game,
            asked=asked,
            until=until,
            seat=seat,
            token=token,
            state=state,
        )

        rematch.additional_properties = d
        return rematch

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
