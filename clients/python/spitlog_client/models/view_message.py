from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.view_message_type import ViewMessageType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.speed_state import SpeedState
    from ..models.spit_state import SpitState


T = TypeVar("T", bound="ViewMessage")


@_attrs_define
class ViewMessage:
    """
    Attributes:
        version (int): the version the view shows
        state (SpeedState | SpitState): A game's state as you may see it, by its `game`.
        type_ (ViewMessageType | Unset): NDJSON only
    """

    version: int
    state: SpeedState | SpitState
    type_: ViewMessageType | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spit_state import SpitState  # noqa: PLC0415

        version = self.version

        state: dict[str, Any]
        if isinstance(self.state, SpitState):
            state = self.state.to_dict()
        else:
            state = self.state.to_dict()

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "state": state,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.speed_state import SpeedState  # noqa: PLC0415
        from ..models.spit_state import SpitState  # noqa: PLC0415

        d = dict(src_dict)
        version = d.pop("version")

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

        _type_ = d.pop("type", UNSET)
        type_: ViewMessageType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = ViewMessageType(_type_)

        view_message = cls(
            version=version,
            state=state,
            type_=type_,
        )

        view_message.additional_properties = d
        return view_message

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
