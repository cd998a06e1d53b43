// The try-it page: Swagger UI (swagger-ui-dist, vendored beside this file) on this
// server's own /openapi.yaml; nothing is fetched from anywhere else.
window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
});
