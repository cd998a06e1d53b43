from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.game_finished_data_status import GameFinishedDataStatus

T = TypeVar("T", bound="GameFinishedData")


@_attrs_define
class GameFinishedData:
    """
    Attributes:
        status (GameFinishedDataStatus):
        winner (int | None): null: nobody won
        result (str): the ID of the rule it ended by (its entry: `/docs/rules#<ID>`)
    """

    status: GameFinishedDataStatus
    winner: int | None
    result: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        winner: int | None
        winner = self.winner

        result = self.result

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "winner": winner,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = GameFinishedDataStatus(d.pop("status"))

        def _parse_winner(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner = _parse_winner(d.pop("winner"))

        result = d.pop("result")

        game_finished_data = cls(
            status=status,
            winner=winner,
            result=result,
        )

        game_finished_data.additional_properties = d
        return game_finished_data

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
