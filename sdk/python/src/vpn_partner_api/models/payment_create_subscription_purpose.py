from enum import StrEnum


class PaymentCreateSubscriptionPurpose(StrEnum):
    SUBSCRIPTION = "subscription"

    def __str__(self) -> str:
        return str(self.value)
