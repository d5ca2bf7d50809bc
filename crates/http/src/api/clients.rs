use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, delete, get, post};
use vp_app::clients::ClientListQuery;
use vp_app::clients::Clients;
use vp_domain::{ClientId, SubscriptionStatus};

use crate::auth::Partner;
use crate::dto::{Client, ClientList, Devices};
use crate::error::{ApiError, Envelope};
use crate::openapi::values::{ClientIdValue, ClientStatusFilter, PageCursor, PageLimit};

fn client_id(raw: &str) -> Result<ClientId, ApiError> {
    ClientId::parse(raw).map_err(|e| ApiError::field("client_id", e.to_string()))
}

/// List clients, oldest first, filtered by subscription status.
#[utoipa::path(
    tag = "clients",
    security(("PartnerKey" = [])),
    params(
        ("status" = Option<ClientStatusFilter>, Query, description = "Only clients in this subscription state; all clients when absent"),
        ("limit" = Option<PageLimit>, Query, description = "Clients per page"),
        ("cursor" = Option<PageCursor>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, body = ClientList),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 422, description = "VALIDATION_ERROR", body = Envelope),
    )
)]
#[get("/clients")]
pub async fn list_clients(
    partner: Partner,
    clients: Data<Clients>,
    query: Result<Query<Vec<(String, String)>>, actix_web::Error>,
) -> Result<HttpResponse, ApiError> {
    let pairs = query.map_err(|_| ApiError::field("query", "is not a valid query string"))?.into_inner();
    let mut errors = std::collections::BTreeMap::new();
    let mut q = ClientListQuery::default();
    for (name, value) in pairs {
        match name.as_str() {
            "status" => match value.as_str() {
                "none" => q.status = Some(None),
                other => match other.parse::<SubscriptionStatus>() {
                    Ok(s) => q.status = Some(Some(s)),
                    Err(_) => {
                        errors.insert("status".to_owned(), "must be active, expired, suspended or none".to_owned());
                    }
                },
            },
            "limit" => match value.parse::<u32>() {
                Ok(l) => q.limit = Some(l),
                Err(_) => {
                    errors.insert("limit".to_owned(), "must be an integer between 1 and 100".to_owned());
                }
            },
            "cursor" => q.cursor = Some(value),
            _ => {
                errors.insert(name, "unknown parameter".to_owned());
            }
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    Ok(HttpResponse::Ok().json(ClientList::from(clients.list_clients(&partner.0, q).await?)))
}

/// Read a client.
#[utoipa::path(
    tag = "clients",
    security(("PartnerKey" = [])),
    params(("client_id" = ClientIdValue, Path)),
    responses(
        (status = 200, body = Client),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 403, description = "API_CLIENT_BLOCKED", body = Envelope),
        (status = 404, description = "API_CLIENT_NOT_FOUND", body = Envelope),
    )
)]
#[get("/clients/{client_id}")]
pub async fn get_client(
    partner: Partner,
    clients: Data<Clients>,
    path: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = client_id(&path)?;
    Ok(HttpResponse::Ok().json(Client::from(clients.client_view(&partner.0, &id).await?)))
}

/// List the client's devices. An empty list always means no devices; when the VPN service
/// does not answer the result is `503`, never an empty list.
#[utoipa::path(
    tag = "clients",
    security(("PartnerKey" = [])),
    params(("client_id" = ClientIdValue, Path)),
    responses(
        (status = 200, body = Devices),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 403, description = "API_CLIENT_BLOCKED", body = Envelope),
        (status = 404, description = "API_CLIENT_NOT_FOUND", body = Envelope),
        (status = 503, description = "SERVICE_UNAVAILABLE", body = Envelope),
    )
)]
#[get("/clients/{client_id}/devices")]
pub async fn get_devices(
    partner: Partner,
    clients: Data<Clients>,
    path: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = client_id(&path)?;
    Ok(HttpResponse::Ok().json(Devices::from(clients.client_devices(&partner.0, &id).await?)))
}

/// Disconnect a device and free its slot. `device_id` is URL-encoded in the path.
#[utoipa::path(
    tag = "clients",
    security(("PartnerKey" = [])),
    params(("client_id" = ClientIdValue, Path), ("device_id" = String, Path, description = "`device_id` from the device list")),
    responses(
        (status = 204, description = "Disconnected"),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 403, description = "API_CLIENT_BLOCKED", body = Envelope),
        (status = 404, description = "API_CLIENT_NOT_FOUND, DEVICE_NOT_FOUND", body = Envelope),
        (status = 503, description = "SERVICE_UNAVAILABLE", body = Envelope),
    )
)]
#[delete("/clients/{client_id}/devices/{device_id}")]
pub async fn delete_device(
    partner: Partner,
    clients: Data<Clients>,
    path: Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (raw_client, device_id) = path.into_inner();
    let id = client_id(&raw_client)?;
    clients.delete_client_device(&partner.0, &id, &device_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Start a trial; a missing client is created. Answers the client with its new subscription.
#[utoipa::path(
    tag = "clients",
    security(("PartnerKey" = [])),
    params(("client_id" = ClientIdValue, Path)),
    responses(
        (status = 201, description = "Trial granted", body = Client),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 403, description = "TRIAL_DISABLED, API_CLIENT_BLOCKED", body = Envelope),
        (status = 409, description = "TRIAL_ALREADY_USED", body = Envelope),
        (status = 429, description = "TRIAL_DAILY_LIMIT, NEW_CLIENTS_DAILY_LIMIT", body = Envelope),
        (status = 503, description = "SERVICE_UNAVAILABLE: no trial granted; the request may be repeated", body = Envelope),
    )
)]
#[post("/clients/{client_id}/trial")]
pub async fn start_trial(
    partner: Partner,
    clients: Data<Clients>,
    path: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = client_id(&path)?;
    Ok(HttpResponse::Created().json(Client::from(clients.start_trial(&partner.0, &id).await?)))
}

/// Issue a new subscription link; the old one stops working at once on all devices.
#[utoipa::path(
    tag = "clients",
    security(("PartnerKey" = [])),
    params(("client_id" = ClientIdValue, Path)),
    responses(
        (status = 200, description = "The client with its new subscription_url", body = Client),
        (status = 400, description = "NO_ACTIVE_SUBSCRIPTION", body = Envelope),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 403, description = "API_CLIENT_BLOCKED", body = Envelope),
        (status = 404, description = "API_CLIENT_NOT_FOUND", body = Envelope),
        (status = 429, description = "LINK_ROTATE_TOO_SOON, with Retry-After", body = Envelope),
        (status = 503, description = "SERVICE_UNAVAILABLE: the link did not change and the pause did not start", body = Envelope),
    )
)]
#[post("/clients/{client_id}/rotate-link")]
pub async fn rotate_link(
    partner: Partner,
    clients: Data<Clients>,
    path: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = client_id(&path)?;
    Ok(HttpResponse::Ok().json(Client::from(clients.rotate_link(&partner.0, &id).await?)))
}
