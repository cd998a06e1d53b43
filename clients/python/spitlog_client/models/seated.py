from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.speed_state import SpeedState
    from ..models.spit_state import SpitState


T = TypeVar("T", bound="Seated")


@_attrs_define
class Seated:
    """
    Attributes:
        seat (int):
        token (str): your seat's token, shown once
        state (SpeedState | SpitState): A game's state as you may see it, by its `game`.
    """

    seat: int
    token: str
    state: SpeedState | SpitState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spit_state import SpitState  # noqa: PLC0415

        seat = self.seat

        token = self.token

        state: dict[str, Any]
        if isinstance(self.state, SpitState):
            state = self.state.to_dict()
        else:
            state = self.state.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "token": token,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.speed_state import SpeedState  # noqa: PLC0415
        from ..models.spit_state import SpitState  # noqa: PLC0415

        d = dict(src_dict)
        seat = d.pop("seat")

        token = d.pop("token")

        def _parse_state(data: object) -> SpeedState | SpitState:
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

        state = _parse_state(d.pop("state"))

        seated = cls(
            seat=seat,
            token=token,
            state=state,
        )

        seated.additional_properties = d
        return seated

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
