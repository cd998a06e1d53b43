from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery import Delivery
    from ..models.webhook_info import WebhookInfo


T = TypeVar("T", bound="Deliveries")


@_attrs_define
class Deliveries:
    """
    Attributes:
        webhook (None | WebhookInfo):
        deliveries (list[Delivery]):
        pending (bool | Unset):
    """

    webhook: None | WebhookInfo
    deliveries: list[Delivery]
    pending: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_info import WebhookInfo  # noqa: PLC0415

        webhook: dict[str, Any] | None
        if isinstance(self.webhook, WebhookInfo):
            webhook = self.webhook.to_dict()
        else:
            webhook = self.webhook

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        pending = self.pending

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "webhook": webhook,
                "deliveries": deliveries,
            }
        )
        if pending is not UNSET:
            field_dict["pending"] = pending

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery import Delivery  # noqa: PLC0415
        from ..models.webhook_info import WebhookInfo  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_webhook(data: object) -> None | WebhookInfo:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                webhook_type_0 = WebhookInfo.from_dict(data)

                return webhook_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookInfo, data)

        webhook = _parse_webhook(d.pop("webhook"))

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = Delivery.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        pending = d.pop("pending", UNSET)

        deliveries = cls(
            webhook=webhook,
            deliveries=deliveries,
            pending=pending,
        )

        deliveries.additional_properties = d
        return deliveries

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
