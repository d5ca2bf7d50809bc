from enum import StrEnum


class PaymentCreateDevicesPurpose(StrEnum):
    DEVICES = "devices"

    def __str__(self) -> str:
        return str(self.value)
