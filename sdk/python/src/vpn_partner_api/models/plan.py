from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.traffic_limit import TrafficLimit


T = TypeVar("T", bound="Plan")


@_attrs_define
class Plan:
    """
    Attributes:
        lifetime (bool):
        months (int): Calendar months of the term; 0 for a lifetime plan.
        partner_share (str): Rubles with two digits after the point; show as given, never through floating point.
        plan_id (int):
        platform_price (str): Rubles with two digits after the point; show as given, never through floating point.
        price (str): Rubles with two digits after the point; show as given, never through floating point.
        traffic_limit (None | TrafficLimit | Unset):
    """

    lifetime: bool
    months: int
    partner_share: str
    plan_id: int
    platform_price: str
    price: str
    traffic_limit: None | TrafficLimit | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.traffic_limit import TrafficLimit

        lifetime = self.lifetime

        months = self.months

        partner_share = self.partner_share

        plan_id = self.plan_id

        platform_price = self.platform_price

        price = self.price

        traffic_limit: dict[str, Any] | None | Unset
        if isinstance(self.traffic_limit, Unset):
            traffic_limit = UNSET
        elif isinstance(self.traffic_limit, TrafficLimit):
            traffic_limit = self.traffic_limit.to_dict()
        else:
            traffic_limit = self.traffic_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lifetime": lifetime,
                "months": months,
                "partner_share": partner_share,
                "plan_id": plan_id,
                "platform_price": platform_price,
                "price": price,
            }
        )
        if traffic_limit is not UNSET:
            field_dict["traffic_limit"] = traffic_limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.traffic_limit import TrafficLimit

        d = dict(src_dict)
        lifetime = d.pop("lifetime")

        months = d.pop("months")

        partner_share = d.pop("partner_share")

        plan_id = d.pop("plan_id")

        platform_price = d.pop("platform_price")

        price = d.pop("price")

        def _parse_traffic_limit(data: object) -> None | TrafficLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                traffic_limit_type_1 = TrafficLimit.from_dict(data)

                return traffic_limit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrafficLimit | Unset, data)

        traffic_limit = _parse_traffic_limit(d.pop("traffic_limit", UNSET))

        plan = cls(
            lifetime=lifetime,
            months=months,
            partner_share=partner_share,
            plan_id=plan_id,
            platform_price=platform_price,
            price=price,
            traffic_limit=traffic_limit,
        )

        plan.additional_properties = d
        return plan

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
