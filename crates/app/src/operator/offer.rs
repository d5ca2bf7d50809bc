//! The offer as the operator sets it: plans, the device offer and the payment methods. Every
//! change reaches `POST /payments` at once in this process and within a second elsewhere.

use vp_domain::traffic::TrafficLimit;
use vp_domain::{DeviceSettings, GatewayName, MethodCode, Money};
use vp_ports::{NewPlan, PaymentMethodRecord, PlanRecord};

use super::{Operator, PLAN_MONTHS_MAX, check_gateway_type, merge_validation};
use crate::error::{AppError, AppResult};

impl Operator {
    /// A plan of `months` calendar months, or a lifetime plan when `months` is `None`, with the
    /// traffic each term allows (`None`: no limit).
    pub async fn create_plan(
        &self,
        months: Option<u32>,
        platform_price: &str,
        device_limited: bool,
        traffic: Option<TrafficLimit>,
    ) -> AppResult<PlanRecord> {
        let price = Money::parse_positive(platform_price).map_err(|e| AppError::field("platform_price", e));
        let months_ok = match months {
            Some(m) if m == 0 || m > PLAN_MONTHS_MAX => {
                Err(AppError::field("months", format!("must be between 1 and {PLAN_MONTHS_MAX}")))
            }
            _ => Ok(()),
        };
        let price = match (price, months_ok) {
            (Ok(p), Ok(())) => p,
            (p, m) => return Err(merge_validation([p.err(), m.err()])),
        };
        let plan = NewPlan {
            months: months.unwrap_or(0),
            lifetime: months.is_none(),
            device_limited,
            platform_price: price,
            created_at: self.clock.now(),
            traffic,
        };
        let mut tx = self.store.begin().await?;
        let created = tx.insert_plan(&plan).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok(created)
    }

    /// Withdraws a plan: it leaves `GET /plans` and new invoices for it get `PLAN_NOT_FOUND`;
    /// subscriptions already bought keep their term.
    pub async fn retire_plan(&self, plan_id: i32) -> AppResult<PlanRecord> {
        let mut tx = self.store.begin().await?;
        tx.plan(plan_id).await?.ok_or(AppError::NotFound("plan"))?;
        if !tx.retire_plan(plan_id, self.clock.now()).await? {
            return Err(AppError::Conflict(format!("plan {plan_id} is already retired")));
        }
        let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("plan"))?;
        tx.commit().await?;
        self.offers.forget();
        Ok(plan)
    }

    pub async fn list_plans(&self, include_retired: bool) -> AppResult<Vec<PlanRecord>> {
        Ok(read!(self.store, |tx| tx.plans(include_retired)))
    }

    /// Sets the device settings; `platform_price` `None` keeps extra devices off sale.
    pub async fn set_device_offer(
        &self,
        included: u32,
        max: u32,
        platform_price: Option<&str>,
    ) -> AppResult<DeviceSettings> {
        let price = platform_price
            .map(|p| Money::parse_positive(p).map_err(|e| AppError::field("platform_price", e)))
            .transpose()?;
        let settings = DeviceSettings::new(included, max, price).map_err(|e| AppError::field("included", e))?;
        let mut tx = self.store.begin().await?;
        tx.set_device_settings(&settings).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok(settings)
    }

    /// Stops selling extra devices; `included` and `max` stay in force.
    pub async fn switch_off_device_offer(&self) -> AppResult<DeviceSettings> {
        let mut tx = self.store.begin().await?;
        let current = tx
            .device_settings()
            .await?
            .ok_or_else(|| AppError::Conflict("device settings were never set; use `devices set` first".into()))?;
        let off = DeviceSettings { platform_price: None, ..current };
        tx.set_device_settings(&off).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok(off)
    }

    pub async fn device_settings(&self) -> AppResult<Option<DeviceSettings>> {
        Ok(read!(self.store, |tx| tx.device_settings()))
    }

    /// Adds a payment method, enabled, after the existing ones. `gateway` is the gateway its
    /// payments go through (`None`: the default one, `VP_GATEWAY`), `gateway_type` that
    /// gateway's own method it maps to (checked against the gateway's list by the caller).
    pub async fn add_payment_method(
        &self,
        code: &str,
        name_en: &str,
        name_ru: &str,
        gateway: Option<GatewayName>,
        gateway_type: Option<&str>,
    ) -> AppResult<PaymentMethodRecord> {
        let mut errors = crate::FieldErrors::new();
        if let Err(e) = check_gateway_type(gateway_type) {
            errors.insert("gateway_type".into(), e);
        }
        let plain = code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if let Err(e) = MethodCode::parse(code) {
            errors.insert("code".into(), e.to_string());
        } else if !plain {
            errors.insert("code".into(), "may contain only Latin letters, digits, - and _".into());
        }
        for (field, name) in [("name_en", name_en), ("name_ru", name_ru)] {
            if name.trim().is_empty() || name.chars().count() > 64 {
                errors.insert(field.into(), "must be 1 to 64 characters".into());
            }
        }
        if !errors.is_empty() {
            return Err(AppError::Validation(errors));
        }
        let mut tx = self.store.begin().await?;
        if tx.payment_method(code).await?.is_some() {
            return Err(AppError::Conflict(format!("payment method {code} already exists")));
        }
        let position = tx.payment_methods().await?.iter().map(|m| m.position).max().map_or(0, |p| p + 1);
        let method = PaymentMethodRecord {
            code: code.to_owned(),
            name_en: name_en.trim().to_owned(),
            name_ru: name_ru.trim().to_owned(),
            enabled: true,
            position,
            gateway,
            gateway_type: gateway_type.map(str::to_owned),
        };
        tx.upsert_payment_method(&method).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok(method)
    }

    pub async fn set_payment_method_enabled(&self, code: &MethodCode, enabled: bool) -> AppResult<PaymentMethodRecord> {
        let mut tx = self.store.begin().await?;
        let mut method = tx.payment_method(code.as_str()).await?.ok_or(AppError::NotFound("payment method"))?;
        method.enabled = enabled;
        tx.upsert_payment_method(&method).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok(method)
    }

    /// Routes a method's payments through `gateway` (`None`: the default one) with that
    /// gateway's own method `gateway_type`, or (`None`) lets the customer choose on the
    /// gateway's page. Invoices issued before keep their rail.
    pub async fn set_payment_method_gateway(
        &self,
        code: &MethodCode,
        gateway: Option<GatewayName>,
        gateway_type: Option<&str>,
    ) -> AppResult<PaymentMethodRecord> {
        check_gateway_type(gateway_type).map_err(|e| AppError::field("gateway_type", e))?;
        let mut tx = self.store.begin().await?;
        let mut method = tx.payment_method(code.as_str()).await?.ok_or(AppError::NotFound("payment method"))?;
        method.gateway = gateway;
        method.gateway_type = gateway_type.map(str::to_owned);
        tx.upsert_payment_method(&method).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok(method)
    }

    pub async fn list_payment_methods(&self) -> AppResult<Vec<PaymentMethodRecord>> {
        Ok(read!(self.store, |tx| tx.payment_methods()))
    }
}
