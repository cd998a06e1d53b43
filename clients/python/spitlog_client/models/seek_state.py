from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.seek_state_status import SeekStateStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="SeekState")


@_attrs_define
class SeekState:
    """
    Attributes:
        id (str):
        status (SeekStateStatus):
        game (str):
        rated (bool):
        rating_range (list[int]):
        expires_at (str):
        bot_fallback_at (None | str | Unset):
        game_id (None | str | Unset): once paired: your game (the seek's token is your seat's token in it)
        seat (int | None | Unset):
        opponent (None | str | Unset): seek (another seeker) or bot:<level>
        token (str | Unset): the seek's token, shown once: it reads and cancels the seek, then plays your seat
    """

    id: str
    status: SeekStateStatus
    game: str
    rated: bool
    rating_range: list[int]
    expires_at: str
    bot_fallback_at: None | str | Unset = UNSET
    game_id: None | str | Unset = UNSET
    seat: int | None | Unset = UNSET
    opponent: None | str | Unset = UNSET
    token: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        game = self.game

        rated = self.rated

        rating_range = self.rating_range

        expires_at = self.expires_at

        bot_fallback_at: None | str | Unset
        if isinstance(self.bot_fallback_at, Unset):
            bot_fallback_at = UNSET
        else:
            bot_fallback_at = self.bot_fallback_at

        game_id: None | str | Unset
        if isinstance(self.game_id, Unset):
            game_id = UNSET
        else:
            game_id = self.game_id

        seat: int | None | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        opponent: None | str | Unset
        if isinstance(self.opponent, Unset):
            opponent = UNSET
        else:
            opponent = self.opponent

        token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "game": game,
                "rated": rated,
                "rating_range": rating_range,
                "expires_at": expires_at,
            }
        )
        if bot_fallback_at is not UNSET:
            field_dict["bot_fallback_at"] = bot_fallback_at
        if game_id is not UNSET:
            field_dict["game_id"] = game_id
        if seat is not UNSET:
            field_dict["seat"] = seat
        if opponent is not UNSET:
            field_dict["opponent"] = opponent
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        status = SeekStateStatus(d.pop("status"))

        game = d.pop("game")

        rated = d.pop("rated")

        rating_range = cast(list[int], d.pop("rating_range"))

        expires_at = d.pop("expires_at")

        def _parse_bot_fallback_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bot_fallback_at = _parse_bot_fallback_at(d.pop("bot_fallback_at", UNSET))

        def _parse_game_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        game_id = _parse_game_id(d.pop("game_id", UNSET))

        def _parse_seat(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        def _parse_opponent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opponent = _parse_opponent(d.pop("opponent", UNSET))

        token = d.pop("token", UNSET)

        seek_state = cls(
            id=id,
            status=status,
            game=game,
            rated=rated,
            rating_range=rating_range,
            expires_at=expires_at,
            bot_fallback_at=bot_fallback_at,
            game_id=game_id,
            seat=seat,
            opponent=opponent,
            token=token,
        )

        seek_state.additional_properties = d
        return seek_state

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
