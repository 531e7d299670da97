//! The OpenAPI 3.1 document, made from the endpoint table and the wire
//! types' derived schemas.

use serde_json::Value;
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, ParameterBuilder, ParameterIn, PathItem,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, ObjectBuilder, OpenApiBuilder, PathsBuilder,
    Ref, RefOr, Required, ResponseBuilder, Schema, Type,
};
use utoipa::{PartialSchema, ToSchema};

use super::endpoint::{Access, Endpoint, JSON};
use super::error::ErrorAnswer;

/// The security scheme's name.
const BEARER: &str = "bearer";
/// The security scheme of a table game's seat token.
const SEAT: &str = "seat";

fn method(name: &str) -> HttpMethod {
    match name {
        "post" => HttpMethod::Post,
        "delete" => HttpMethod::Delete,
        "put" => HttpMethod::Put,
        _ => HttpMethod::Get,
    }
}

fn operation(endpoint: &Endpoint, components: &mut Vec<(String, RefOr<Schema>)>) -> Operation {
    let string = ObjectBuilder::new().schema_type(Type::String).build();
    let parameters = endpoint
        .path
        .split('/')
        .filter_map(|part| part.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(string.clone()))
                .build()
        })
        .chain(endpoint.query.map(|query| query()).unwrap_or_default());
    let answer = ContentBuilder::new()
        .schema(endpoint.answer_schema.map(|schema| schema(components)))
        .build();
    let refused = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name(ErrorAnswer::name())))
        .build();
    let mut operation = OperationBuilder::new()
        .summary(Some(endpoint.summary))
        .parameters(Some(parameters))
        .response(
            endpoint.success.to_string(),
            ResponseBuilder::new()
                .description("done")
                .content(endpoint.answer, answer),
        )
        .response(
            "4XX",
            ResponseBuilder::new()
                .description("refused")
                .content(JSON, refused),
        );
    let bearer = || SecurityRequirement::new(BEARER, Vec::<String>::new());
    operation = match endpoint.access {
        Access::Token | Access::Arbiter => operation.security(bearer()),
        Access::Optional => operation
            .security(SecurityRequirement::default())
            .security(bearer()),
        Access::Public | Access::Session => operation,
    };
    if endpoint.seat {
        operation = operation.security(SecurityRequirement::new(SEAT, Vec::<String>::new()));
    }
    match endpoint.access {
        _ if endpoint.seat => {
            operation = operation.description(Some(
                "Also a table game's seat token (`seat_…`), for its own game and colour.",
            ));
        }
        Access::Arbiter => operation = operation.description(Some("Arbiter or admin role.")),
        Access::Session => operation = operation.description(Some("A browser session's cookie.")),
        _ => {}
    }
    if let Some(body) = endpoint.body {
        let content = ContentBuilder::new().schema(Some(body(components))).build();
        operation = operation.request_body(Some(
            RequestBodyBuilder::new()
                .required(Some(Required::True))
                .content(JSON, content)
                .build(),
        ));
    }
    operation.build()
}

/// The OpenAPI 3.1 document of `endpoints`.
pub(super) fn document(endpoints: &[Endpoint]) -> Value {
    let mut components = Vec::new();
    let mut paths = PathsBuilder::new();
    let mut items: Vec<(&str, PathItem)> = Vec::new();
    for endpoint in endpoints {
        let item = PathItem::new(
            method(endpoint.method),
            operation(endpoint, &mut components),
        );
        match items.iter_mut().find(|(path, _)| *path == endpoint.path) {
            Some((_, existing)) => existing.merge_operations(item),
            None => items.push((endpoint.path, item)),
        }
    }
    for (path, item) in items {
        paths = paths.path(path, item);
    }
    ErrorAnswer::schemas(&mut components);
    components.push((ErrorAnswer::name().into_owned(), ErrorAnswer::schema()));
    let components = ComponentsBuilder::new()
        .schemas_from_iter(components)
        .security_scheme(
            BEARER,
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        )
        .security_scheme(SEAT, {
            let mut seat = Http::new(HttpAuthScheme::Bearer);
            seat.bearer_format = Some("seat_ and 64 hex digits".into());
            SecurityScheme::Http(seat)
        })
        .build();
    let document = OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("tempo play server")
                .version(env!("CARGO_PKG_VERSION")),
        )
        .paths(paths)
        .components(Some(components))
        .build();
    serde_json::to_value(document).expect("the document serialises")
}
