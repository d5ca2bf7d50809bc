from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_code import ErrorCode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_body_fields_type_0 import ErrorBodyFieldsType0


T = TypeVar("T", bound="ErrorBody")


@_attrs_define
class ErrorBody:
    """
    Attributes:
        code (ErrorCode): Every error code the API answers with: the spec's 25, and four for HTTP-level mistakes
            the spec does not name (docs/decisions.md).
        message (str): For logs, in the language of `Accept-Language`; not for customers.
        fields (ErrorBodyFieldsType0 | None | Unset): Field to reason for `VALIDATION_ERROR`; `null` for every other
            code.
    """

    code: ErrorCode
    message: str
    fields: ErrorBodyFieldsType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.error_body_fields_type_0 import ErrorBodyFieldsType0

        code = self.code.value

        message = self.message

        fields: dict[str, Any] | None | Unset
        if isinstance(self.fields, Unset):
            fields = UNSET
        elif isinstance(self.fields, ErrorBodyFieldsType0):
            fields = self.fields.to_dict()
        else:
            fields = self.fields

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_body_fields_type_0 import ErrorBodyFieldsType0

        d = dict(src_dict)
        code = ErrorCode(d.pop("code"))

        message = d.pop("message")

        def _parse_fields(data: object) -> ErrorBodyFieldsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fields_type_0 = ErrorBodyFieldsType0.from_dict(data)

                return fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorBodyFieldsType0 | None | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))

        error_body = cls(
            code=code,
            message=message,
            fields=fields,
        )

        error_body.additional_properties = d
        return error_body

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
