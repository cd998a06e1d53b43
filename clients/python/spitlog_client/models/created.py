from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.created_webhook import CreatedWebhook
    from ..models.speed_state import SpeedState
    from ..models.spit_state import SpitState


T = TypeVar("T", bound="Created")


@_attrs_define
class Created:
    """
    Attributes:
        id (str):
        seat (int | None): null when a bot holds seat 0
        token (None | str): your seat's token, shown once (null: you watch)
        commitment (str):
        state (SpeedState | SpitState): A game's state as you may see it, by its `game`.
        webhook (CreatedWebhook | Unset):
    """

    id: str
    seat: int | None
    token: None | str
    commitment: str
    state: SpeedState | SpitState
    webhook: CreatedWebhook | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spit_state import SpitState  # noqa: PLC0415

        id = self.id

        seat: int | None
        seat = self.seat

        token: None | str
        token = self.token

        commitment = self.commitment

        state: dict[str, Any]
        if isinstance(self.state, SpitState):
            state = self.state.to_dict()
        else:
            state = self.state.to_dict()

        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "seat": seat,
                "token": token,
                "commitment": commitment,
                "state": state,
            }
        )
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.created_webhook import CreatedWebhook  # noqa: PLC0415
        from ..models.speed_state import SpeedState  # noqa: PLC0415
        from ..models.spit_state import SpitState  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        def _parse_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token = _parse_token(d.pop("token"))

        commitment = d.pop("commitment")

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

        _webhook = d.pop("webhook", UNSET)
        webhook: CreatedWebhook | Unset
        if isinstance(_webhook, Unset):
            webhook = UNSET
        else:
            webhook = CreatedWebhook.from_dict(_webhook)

        created = cls(
            id=id,
            seat=seat,
            token=token,
            commitment=commitment,
            state=state,
            webhook=webhook,
        )

        created.additional_properties = d
        return created

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
