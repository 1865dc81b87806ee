'use strict';
module.exports = {
  ...require('./geo'),
  ...require('./polygon'),
  ...require('./fence'),
};
