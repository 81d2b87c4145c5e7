/* global window, document */
// A stand-in for Stripe.js, served by the Stripe-mode browser test at Stripe's own script address
// (https://js.stripe.com/...) through Playwright routing: the part of Stripe.js our card step
// calls, with Stripe's calling conventions. Card fields are plain inputs in the page (Stripe's
// are in its frames); the calls go to https://api.stripe.com with the publishable key, as
// Stripe.js makes them, and the test routes them to stripe-mock. stripe-mock keeps no state, so
// the outcome of a confirmation is Stripe's for its test cards: 4242... succeeds, 4000 0000 0000
// 0002 is declined, 4000 0025 0000 3155 asks for 3-D Secure first (a dialog, as Stripe.js opens).
(function () {
  'use strict';
  const API = 'https://api.stripe.com';
  const DECLINED = '4000000000000002';
  const THREE_D_SECURE = '4000002500003155';

  function post(key, path, params) {
    const body = new URLSearchParams({ ...params, key });
    return fetch(API + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    }).then(answer);
  }

  function get(key, path, params) {
    const query = new URLSearchParams({ ...params, key });
    return fetch(API + path + '?' + query.toString()).then(answer);
  }

  function answer(response) {
    return response.json().then(function (json) {
      if (!response.ok) throw Object.assign(new Error('stripe'), { stripe: json.error });
      return json;
    });
  }

  function intentIdOf(clientSecret) {
    return String(clientSecret).split('_secret_')[0];
  }

  /** A field of the card element: a labelled input. */
  function field(container, label, name, placeholder, onInput) {
    const wrap = document.createElement('label');
    wrap.style.cssText = 'display:block;margin-bottom:12px;font:14px system-ui;color:#44403c';
    wrap.textContent = label;
    const input = document.createElement('input');
    input.name = name;
    input.placeholder = placeholder;
    input.autocomplete = 'off';
    input.inputMode = 'numeric';
    input.style.cssText =
      'display:block;width:100%;box-sizing:border-box;margin-top:4px;padding:10px 12px;' +
      'border:1px solid #d6d3d1;border-radius:12px;font:16px ui-monospace,monospace';
    input.addEventListener('input', onInput);
    wrap.appendChild(input);
    container.appendChild(wrap);
    return input;
  }

  function createElement(type) {
    const handlers = {};
    const element = { _type: type, _inputs: null, _node: null };
    function emit(event, payload) {
      (handlers[event] || []).forEach(function (handler) {
        handler(payload);
      });
    }
    function digits(input) {
      return input ? input.value.replace(/\D/g, '') : '';
    }
    function changed() {
      const number = digits(element._inputs.number);
      const expiry = digits(element._inputs.expiry);
      const cvc = digits(element._inputs.cvc);
      emit('change', {
        elementType: type,
        empty: !number && !expiry && !cvc,
        complete: number.length >= 15 && expiry.length === 4 && cvc.length >= 3,
        value: { type: 'card' },
      });
    }
    element.on = function (event, handler) {
      (handlers[event] = handlers[event] || []).push(handler);
      return element;
    };
    element.off = function (event, handler) {
      handlers[event] = (handlers[event] || []).filter(function (h) {
        return h !== handler;
      });
      return element;
    };
    element.mount = function (target) {
      const node = typeof target === 'string' ? document.querySelector(target) : target;
      const box = document.createElement('div');
      box.setAttribute('data-stripe-stand-in', type);
      element._inputs = {
        number: field(box, 'Card number', 'cardnumber', '1234 1234 1234 1234', changed),
        expiry: field(box, 'Expiration date', 'exp-date', 'MM / YY', changed),
        cvc: field(box, 'Security code', 'cvc', 'CVC', changed),
      };
      node.appendChild(box);
      element._node = box;
      setTimeout(function () {
        emit('ready', { elementType: type });
      }, 0);
    };
    element.update = function () {};
    element.focus = function () {
      if (element._inputs) element._inputs.number.focus();
    };
    element.blur = function () {};
    element.clear = function () {};
    element.collapse = function () {};
    element.unmount = function () {
      if (element._node) element._node.remove();
    };
    element.destroy = element.unmount;
    element.card = function () {
      const expiry = digits(element._inputs.expiry);
      return {
        number: digits(element._inputs.number),
        exp_month: expiry.slice(0, 2),
        exp_year: '20' + expiry.slice(2, 4),
        cvc: digits(element._inputs.cvc),
      };
    };
    return element;
  }

  /** What Stripe.js shows while the bank checks the customer: a dialog over the page. */
  function authenticate() {
    return new Promise(function (resolve) {
      const dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-label', '3D Secure authentication');
      dialog.style.cssText =
        'position:fixed;inset:0;display:flex;align-items:center;justify-content:center;' +
        'background:rgba(28,25,23,.5);z-index:1000;font:16px system-ui';
      const panel = document.createElement('div');
      panel.style.cssText = 'background:#fff;padding:24px;border-radius:16px;max-width:320px';
      panel.textContent = 'Your bank asks you to confirm this payment.';
      ['Complete authentication', 'Fail authentication'].forEach(function (label, index) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = label;
        button.style.cssText = 'display:block;margin-top:12px';
        button.addEventListener('click', function () {
          dialog.remove();
          resolve(index === 0);
        });
        panel.appendChild(button);
      });
      dialog.appendChild(panel);
      document.body.appendChild(dialog);
    });
  }

  function StripeStandIn(key) {
    if (!/^pk_(test|live)_/.test(String(key))) throw new Error('Invalid publishable key: ' + key);
    const created = [];
    const stripe = {
      elements: function (options) {
        const deferred = !(options && options.clientSecret);
        if (deferred && !(options && options.mode && options.amount > 0 && options.currency)) {
          throw new Error(
            'IntegrationError: elements() needs a clientSecret, or mode, amount and currency',
          );
        }
        const group = {
          _clientSecret: options && options.clientSecret,
          _submitted: false,
          _options: Object.assign({}, options),
          create: function (type) {
            const element = createElement(type);
            created.push(element);
            return element;
          },
          getElement: function (type) {
            return (
              created.find(function (e) {
                return e._type === type;
              }) || null
            );
          },
          update: function (changes) {
            Object.assign(group._options, changes);
          },
          fetchUpdates: function () {
            return Promise.resolve({});
          },
          submit: function () {
            group._submitted = true;
            return Promise.resolve({});
          },
        };
        return group;
      },
      confirmPayment: function (options) {
        const element =
          options.elements.getElement('payment') || options.elements.getElement('card');
        // A deferred intent (Elements made from mode and amount) names its client secret here.
        const clientSecret = options.clientSecret || options.elements._clientSecret;
        if (!clientSecret) {
          return Promise.reject(
            new Error(
              'IntegrationError: confirmPayment needs a clientSecret for a deferred intent',
            ),
          );
        }
        if (!options.elements._submitted && !options.elements._clientSecret) {
          return Promise.reject(
            new Error('IntegrationError: elements.submit() must be called before confirmPayment'),
          );
        }
        return confirm(clientSecret, element, options.confirmParams || {});
      },
      confirmCardPayment: function (clientSecret, data) {
        const element = data && data.payment_method && data.payment_method.card;
        return confirm(clientSecret, element, { return_url: data && data.return_url });
      },
      retrievePaymentIntent: function (clientSecret) {
        return get(key, '/v1/payment_intents/' + intentIdOf(clientSecret), {
          client_secret: clientSecret,
        }).then(
          function (paymentIntent) {
            return { paymentIntent: paymentIntent };
          },
          function (failure) {
            return { error: failure.stripe };
          },
        );
      },
      createToken: function () {
        return Promise.reject(new Error('not part of the stand-in'));
      },
      createPaymentMethod: function () {
        return Promise.reject(new Error('not part of the stand-in'));
      },
      registerAppInfo: function () {},
      _registerWrapper: function () {},
    };

    function confirm(clientSecret, element, params) {
      const card = element.card();
      return post(key, '/v1/payment_methods', {
        type: 'card',
        'card[number]': card.number,
        'card[exp_month]': card.exp_month,
        'card[exp_year]': card.exp_year,
        'card[cvc]': card.cvc,
      })
        .then(function (method) {
          const confirmation = {
            payment_method: method.id,
            client_secret: clientSecret,
          };
          if (params.return_url) confirmation.return_url = params.return_url;
          return post(
            key,
            '/v1/payment_intents/' + intentIdOf(clientSecret) + '/confirm',
            confirmation,
          );
        })
        .then(function (paymentIntent) {
          if (card.number === DECLINED) {
            return {
              error: {
                type: 'card_error',
                code: 'card_declined',
                decline_code: 'generic_decline',
                message: 'Your card was declined.',
                payment_intent: paymentIntent,
              },
            };
          }
          const paid = { paymentIntent: Object.assign({}, paymentIntent, { status: 'succeeded' }) };
          if (card.number !== THREE_D_SECURE) return paid;
          return authenticate().then(function (passed) {
            return passed
              ? paid
              : {
                  error: {
                    type: 'card_error',
                    code: 'payment_intent_authentication_failure',
                    message:
                      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
                    payment_intent: paymentIntent,
                  },
                };
          });
        })
        .catch(function (failure) {
          if (failure && failure.stripe) return { error: failure.stripe };
          throw failure;
        });
    }
    return stripe;
  }
  // @stripe/stripe-js compares this with the release it was built for.
  StripeStandIn.version = 'endive';
  window.Stripe = StripeStandIn;
})();
