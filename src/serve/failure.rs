//! What a request that cannot be answered gets: a status and one clear
//! sentence, as JSON under /api/ and as a page elsewhere.

use crate::error::{Kind, Kinded};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request was not answered: a kind of the stages, or one only the
/// server has. [`Refusal::status`] is the one place either becomes an
/// HTTP status; everything else asks the refusal, never the status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// What the stages refused ([`Kind`]).
    Stage(Kind),
    /// A request this server will not take from this client.
    Forbidden,
    /// A request without a live session or key.
    Unauthorized,
    /// A body too large for its route.
    TooLarge,
    /// A body in a form the route does not read.
    UnsupportedMedia,
}

impl Refusal {
    pub fn status(self) -> StatusCode {
        match self {
            Refusal::Stage(kind) => status(kind),
            Refusal::Forbidden => StatusCode::FORBIDDEN,
            Refusal::Unauthorized => StatusCode::UNAUTHORIZED,
            Refusal::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::UnsupportedMedia => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// The word an error body carries for it.
    pub fn name(self) -> &'static str {
        match self {
            Refusal::Stage(Kind::NotFound) => "not_found",
            Refusal::Stage(Kind::BadInput) => "bad_input",
            Refusal::Stage(Kind::Busy) => "busy",
            Refusal::Stage(Kind::Internal) => "internal",
            Refusal::Forbidden => "forbidden",
            Refusal::Unauthorized => "unauthorized",
            Refusal::TooLarge => "too_large",
            Refusal::UnsupportedMedia => "unsupported_media",
        }
    }

    /// What a rejection of axum's (a body it could not take) is.
    pub fn of_rejection(status: StatusCode) -> Refusal {
        match status {
            StatusCode::PAYLOAD_TOO_LARGE => Refusal::TooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Refusal::UnsupportedMedia,
            _ => Refusal::Stage(Kind::BadInput),
        }
    }
}

#[derive(Debug)]
pub struct Failure {
    pub refusal: Refusal,
    pub message: String,
}

impl Failure {
    /// A failure of `kind`, with the status every kind has ([`status`]).
    pub fn of(kind: Kind, message: impl Into<String>) -> Failure {
        Failure { refusal: Refusal::Stage(kind), message: message.into() }
    }

    pub fn status(&self) -> StatusCode {
        self.refusal.status()
    }

    /// Another process holds what this needs: trying again later works.
    pub fn is_busy(&self) -> bool {
        self.refusal == Refusal::Stage(Kind::Busy)
    }

    pub fn bad_request(message: impl Into<String>) -> Failure {
        Failure::of(Kind::BadInput, message)
    }

    pub fn not_found(message: impl Into<String>) -> Failure {
        Failure::of(Kind::NotFound, message)
    }

    pub fn unavailable(message: impl Into<String>) -> Failure {
        Failure::of(Kind::Busy, message)
    }

    /// Not a kind of the stages: a request this server will not take from
    /// this client (a write without its page's token, a path on a shared
    /// server).
    pub fn forbidden(message: impl Into<String>) -> Failure {
        Failure { refusal: Refusal::Forbidden, message: message.into() }
    }

    /// Not a kind of the stages either: a request without a live session
    /// or key, which signing in (or the right key) would let through.
    pub fn unauthorized(message: impl Into<String>) -> Failure {
        Failure { refusal: Refusal::Unauthorized, message: message.into() }
    }

    /// An error from the stages below: its kind is the first one its chain
    /// knows ([`kind_of`]); one that knows none is the server's fault, and
    /// logged.
    pub fn from_error(e: anyhow::Error) -> Failure {
        let message = format!("{e:#}");
        let kind = kind_of(&e);
        if kind == Kind::Internal {
            crate::messages::error(&message);
        }
        Failure::of(kind, message)
    }
}

/// Each kind as an HTTP status: the one place a status is chosen for what
/// the stages refuse.
pub fn status(kind: Kind) -> StatusCode {
    match kind {
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::BadInput => StatusCode::BAD_REQUEST,
        Kind::Busy => StatusCode::SERVICE_UNAVAILABLE,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The kind of the first error in `e`'s chain that says one: the error
/// enum of each stage the server calls, named here once.
pub fn kind_of(e: &anyhow::Error) -> Kind {
    fn kinded<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a dyn Kinded> {
        if let Some(x) = cause.downcast_ref::<crate::workflow::Error>() {
            return Some(x);
        }
        if let Some(x) = cause.downcast_ref::<crate::profile::Error>() {
            return Some(x);
        }
        cause.downcast_ref::<crate::library::Error>().map(|x| x as &dyn Kinded)
    }
    e.chain().find_map(kinded).map_or(Kind::Internal, Kinded::kind)
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        Failure::from_error(e)
    }
}

/// The JSON form of a failure ([`ErrorBody`]).
pub struct ApiError(pub Failure);

/// What an /api answer that failed carries: what went wrong, in words
/// for a person (`error`) and as a word for a program (`kind`).
#[derive(serde::Serialize)]
pub struct ErrorBody<'a> {
    pub error: &'a str,
    pub kind: &'static str,
}

impl<E: Into<Failure>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { error: &self.0.message, kind: self.0.refusal.name() };
        let mut res = (self.0.status(), Json(body)).into_response();
        if self.0.is_busy() {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from_static("2"));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    /// An /api failure carries its kind beside its words, and a busy one
    /// says when to come back.
    #[tokio::test]
    async fn an_api_error_says_its_kind_and_a_busy_one_when_to_retry() {
        let busy: anyhow::Error = crate::library::Error::Busy { dir: "/lib".into() }.into();
        let res = ApiError(Failure::from_error(busy)).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers().get(axum::http::header::RETRY_AFTER).map(|v| v.as_bytes()), Some(&b"2"[..]));
        let body = axum::body::to_bytes(res.into_body(), 1 << 16).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["kind"], "busy");
        assert!(v["error"].as_str().unwrap().contains("/lib"), "{v}");
        let refused = ApiError(Failure { refusal: Refusal::of_rejection(StatusCode::PAYLOAD_TOO_LARGE), message: "big".into() });
        assert_eq!(refused.into_response().status(), StatusCode::PAYLOAD_TOO_LARGE);
    }

    /// The status comes from the error's type, found through any context
    /// the stages wrapped it in; wording decides nothing.
    #[test]
    fn a_status_follows_the_kind_not_the_words() {
        let not_found: anyhow::Error = crate::workflow::Error::NotInLibrary { id: "2401.00001".into(), dir: None }.into();
        let wrapped = Err::<(), _>(not_found).context("while answering /api/like").unwrap_err();
        assert_eq!(Failure::from_error(wrapped).status(), StatusCode::NOT_FOUND);
        let busy: anyhow::Error = crate::library::Error::Busy { dir: "/lib".into() }.into();
        assert_eq!(Failure::from_error(busy).status(), StatusCode::SERVICE_UNAVAILABLE);
        let name: anyhow::Error = crate::profile::Error::BadName { name: "a b".into() }.into();
        assert_eq!(Failure::from_error(name).status(), StatusCode::BAD_REQUEST);
        // The same words without the type are the server's fault.
        let words = anyhow::anyhow!("2401.00001 is not in the library; the library at /lib is busy");
        let f = Failure::from_error(words);
        assert_eq!(f.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(f.message.contains("is not in the library"), "{}", f.message);
    }
}
