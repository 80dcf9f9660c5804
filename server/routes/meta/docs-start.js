// Starts Swagger UI on the reference page (a file, not inline script: the CSP allows only 'self').
window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
