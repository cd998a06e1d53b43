from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.game_created_event_options import GameCreatedEventOptions


T = TypeVar("T", bound="GameCreatedEvent")


@_attrs_define
class GameCreatedEvent:
    """A game was created, seat 0 taken and the server seed committed to (H-6).

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['game_created']):  Default: 'game_created'.
        game_id (str):
        game (str):
        options (GameCreatedEventOptions):
        kind (str):
        client_seed (str):
        commitment (str):
        at (float): when, in seconds since the epoch
        rated (bool | None | Unset):
        ruling (int | None | Unset):
    """

    version: int
    game_id: str
    game: str
    options: GameCreatedEventOptions
    kind: str
    client_seed: str
    commitment: str
    at: float
    type_: Literal["game_created"] = "game_created"
    rated: bool | None | Unset = UNSET
    ruling: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        game_id = self.game_id

        game = self.game

        options = self.options.to_dict()

        kind = self.kind

        client_seed = self.client_seed

        commitment = self.commitment

        at = self.at

        rated: bool | None | Unset
        if isinstance(self.rated, Unset):
            rated = UNSET
        else:
            rated = self.rated

        ruling: int | None | Unset
        if isinstance(self.ruling, Unset):
            ruling = UNSET
        else:
            ruling = self.ruling

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "game_id": game_id,
                "game": game,
                "options": options,
                "kind": kind,
                "client_seed": client_seed,
                "commitment": commitment,
                "at": at,
            }
        )
        if rated is not UNSET:
            field_dict["rated"] = rated
        if ruling is not UNSET:
            field_dict["ruling"] = ruling

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_created_event_options import GameCreatedEventOptions  # noqa: PLC0415

        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["game_created"], d.pop("type"))
        if type_ != "game_created":
            raise ValueError(f"type must match const 'game_created', got '{type_}'")

        game_id = d.pop("game_id")

        game = d.pop("game")

        options = GameCreatedEventOptions.from_dict(d.pop("options"))

        kind = d.pop("kind")

        client_seed = d.pop("client_seed")

        commitment = d.pop("commitment")

        at = d.pop("at")

        def _parse_rated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        rated = _parse_rated(d.pop("rated", UNSET))

        def _parse_ruling(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ruling = _parse_ruling(d.pop("ruling", UNSET))

        game_created_event = cls(
            version=version,
            type_=type_,
            game_id=game_id,
            game=game,
            options=options,
            kind=kind,
            client_seed=client_seed,
            commitment=commitment,
            at=at,
            rated=rated,
            ruling=ruling,
        )

        game_created_event.additional_properties = d
        return game_created_event

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
